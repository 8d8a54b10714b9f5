# The benchmark media of ref-15s (shared/bench/README.md), made with ffmpeg (synthetic) once and
# cached; sourced by the render and farm benchmarks so both render exactly the same files.
# usage: source services/render/benches/media.sh; bench_media DIR

# Makes clip.mp4, pic1.png, pic2.png and music.mp3 in directory $1 unless they are there, and
# the id index that names clip.mp4 as the footage document's scene background ("footage").
bench_media() {
  mkdir -p "$1"
  [ -f "$1/materials.json" ] || echo '{"footage": "clip.mp4"}' > "$1/materials.json"
  [ -f "$1/music.mp3" ] && return 0
  ( cd "$1"
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -t 10 -c:v libx264 -preset veryfast -pix_fmt yuv420p clip.mp4
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "mandelbrot=size=1280x720" -frames:v 1 pic1.png
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "gradients=size=1280x720:seed=7,drawgrid=w=160:h=90:t=4:c=white@0.6" -frames:v 1 pic2.png
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=20" \
      -f lavfi -i "anoisesrc=color=pink:amplitude=0.1:sample_rate=44100:duration=20" \
      -filter_complex "[0][1]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=0.5*c0+c2" -c:a libmp3lame -b:a 192k music.mp3 )
}

# The media files bench_media makes, as the documents name them.
BENCH_MEDIA_FILES="clip.mp4 pic1.png pic2.png music.mp3"
