#!/bin/bash
# footage-portrait.json as one ffmpeg filter_complex: per 7.5 s half, the clip covering the frame
# and blurred (σ 8 output pixels, as bgBlur 8 at 2× is read), the same clip contained in the
# middle, a title fading or rising in. usage: ffmpeg-footage.sh MEDIA W H OUT
set -e
M=$1; W=$2; H=$3; OUT=$4
FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
FS=$(( W * 90 / 720 )); CH=$(( W * 9 / 16 / 2 * 2 )); TY=$(( H / 8 ))
half() { # INPUT TITLE ALPHA Y LABEL
  echo "[$1:v]split[b$5][f$5];
[b$5]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},gblur=sigma=8,setsar=1[bb$5];
[f$5]scale=${W}:${CH},setsar=1[ff$5];
[bb$5][ff$5]overlay=x=0:y=(H-h)/2,
 drawtext=fontfile=${FONT}:text='$2':fontsize=${FS}:fontcolor=white:borderw=5:bordercolor=black:x=(w-tw)/2:y='$4':alpha='$3',
 fps=30,format=yuv420p,settb=AVTB[s$5];"
}
FC="$(half 0 '你好，视频彩铃' 'min(1,max(0,t-0.3))' "$TY" 1)
$(half 1 '精彩视频 · 随心分享' 'min(1,max(0,t-0.3))' "${TY}+max(0,(1.3-t))*80" 2)
[s1][s2]concat=n=2:v=1:a=0,format=yuv420p[v];
[2:a]atrim=0:15,asetpts=PTS-STARTPTS,afade=t=in:st=0:d=1,afade=t=out:st=14:d=1[a]"
exec ffmpeg -hide_banner -loglevel error -y \
  -ss 0 -t 7.5 -i "$M/clip.mp4" -ss 2.5 -t 7.5 -i "$M/clip.mp4" -i "$M/music.mp3" \
  -filter_complex "$FC" -map '[v]' -map '[a]' \
  -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -r 30 \
  -c:a aac -b:a 128k -ar 44100 -ac 2 -t 15 -movflags +faststart "$OUT"
