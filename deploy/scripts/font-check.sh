#!/usr/bin/env bash
# Fails when this machine lacks a font the product promises: the renderer and the editor's stage both
# fall back to these for Chinese text and emoji, and a missing one draws boxes (or nothing) with no
# other error. `make run` and the image install them; this catches a missing install step.
set -euo pipefail
status=0
need() { # family, Debian package, a character it must draw (hex code point)
  if ! fc-list ":charset=$3" family | grep -qx "$1\(,.*\)\?"; then
    echo "font-check: '$1' (Debian package $2) is missing or cannot draw U+$3"
    status=1
  fi
}
need "Noto Sans CJK SC" fonts-noto-cjk 94c3     # 铃
need "Noto Color Emoji" fonts-noto-color-emoji 1f3ac  # 🎬
[ $status = 0 ] && echo "font-check: CJK and colour emoji fonts present"
exit $status
