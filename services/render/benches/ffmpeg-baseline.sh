#!/bin/bash
# ref-15s as one ffmpeg filter_complex (the hand-written baseline), adapted from
# shared/bench/ref15s-ffmpeg.sh. usage: ffmpeg-baseline.sh MEDIA W H OUT
set -e
M=$1; W=$2; H=$3; OUT=$4
FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
FS1=$(( W * 80 / 1280 )); [ $W -lt $H ] && FS1=$(( W * 90 / 720 ))
FS2=$(( FS1 * 6 / 10 ))
PW=$(( W * 7 / 10 )); PH=$(( H * 6 / 10 ))
FC="
[0:v]format=yuv420p,setsar=1[bg1];
[1:v]scale=${PW}:${PH}:force_original_aspect_ratio=decrease,format=yuva420p,fade=t=in:st=0.5:d=1:alpha=1[p1];
[bg1][p1]overlay=x=(W-w)/2:y=(H-h)/2+${FS1}/2:shortest=1,
 drawtext=fontfile=${FONT}:text='你好，视频彩铃':fontsize=${FS1}:fontcolor=white:borderw=5:bordercolor=black:x=(w-tw)/2:y=h/12:alpha='if(lt(t,0.3),0,if(lt(t,1.3),t-0.3,if(gt(t,4.5),max(0,5.5-t),1)))',
 fps=30,format=yuv420p,settb=AVTB[s1];
[2:v]trim=0:6,setpts=PTS-STARTPTS,scale=${W}:${H}:force_original_aspect_ratio=decrease,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:black,setsar=1,
 drawtext=fontfile=${FONT}:text='精彩视频 · 随心分享':fontsize=${FS2}:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=16:x=(w-tw)/2:y='h-th-h/10+max(0,(1.5-t))*80':alpha='min(1,max(0,t-0.5))',
 fps=30,format=yuv420p,settb=AVTB[s2];
[3:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,
 zoompan=z='min(1+0.0015*on,1.25)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=165:s=${W}x${H}:fps=30,
 drawtext=fontfile=${FONT}:text='感谢观看':fontsize=${FS1}:fontcolor=yellow:borderw=5:bordercolor=black:x='if(lt(t,1.5),-tw+((w+tw)/2)*(t-0.5),(w-tw)/2)':y=(h-th)/2,
 format=yuv420p,settb=AVTB[s3];
[s1][s2]xfade=transition=fade:duration=1:offset=4.5[x1];
[x1][s3]xfade=transition=slideleft:duration=1:offset=9.5,format=yuv420p[v];
[4:a]atrim=0:15,asetpts=PTS-STARTPTS,afade=t=in:st=0:d=1,afade=t=out:st=14:d=1[a]"
exec ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "color=c=0x1e3a8a:s=${W}x${H}:r=30:d=5.5" \
  -loop 1 -framerate 30 -t 5.5 -i "$M/pic1.png" -i "$M/clip.mp4" -i "$M/pic2.png" -i "$M/music.mp3" \
  -filter_complex "$FC" -map '[v]' -map '[a]' \
  -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -r 30 \
  -c:a aac -b:a 128k -ar 44100 -ac 2 -t 15 -movflags +faststart "$OUT"
