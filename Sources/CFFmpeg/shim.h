// FFmpeg's libraries for MediaCore. Macros Swift cannot import are re-exported as inline
// functions with a `cff_` prefix.
#ifndef MARQUEE_CFFMPEG_SHIM_H
#define MARQUEE_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mathematics.h>
#include <libavutil/dict.h>
#include <libavutil/audio_fifo.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

static inline int cff_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cff_error_eof(void) { return AVERROR_EOF; }
static inline int cff_error_exit(void) { return AVERROR_EXIT; }
static inline int cff_error_enomem(void) { return AVERROR(ENOMEM); }
static inline int cff_error_eio(void) { return AVERROR(EIO); }
static inline int cff_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cff_time_base(void) { return AV_TIME_BASE; }
static inline int cff_seek_size(void) { return AVSEEK_SIZE; }

#endif
