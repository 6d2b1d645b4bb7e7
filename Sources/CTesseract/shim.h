// Tesseract 5's C API for VisualAnalysis.
#ifndef MARQUEE_CTESSERACT_SHIM_H
#define MARQUEE_CTESSERACT_SHIM_H

#include <tesseract/capi.h>

#endif
