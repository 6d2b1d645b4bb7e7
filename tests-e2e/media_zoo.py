"""The media zoo: files of the kinds people really have, made with Debian's ffmpeg from lavfi
sources (nothing downloaded), each with what a user should see once it is added: its duration,
the picture's display size (upright, square pixels), its audio and subtitle tracks — or that it
fails with a plain reason.

Every entry is made from a recipe, so the zoo is the same on every machine; files are cached in
a folder keyed by the recipes' digest. `HELD_OUT` names a part of the zoo nobody tunes on: the
tests run it last, as a new user would meet it.
"""
import hashlib
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Expect:
    """What the library should show for a file; `fails` means a plain refusal, not a crash."""
    duration: float | None = None
    width: int | None = None
    height: int | None = None
    audio: int = 0
    subtitles: int = 0
    fails: bool = False
    # A damaged file that still plays in part: ready, and its duration is what really plays.
    partial: bool = False


@dataclass(frozen=True)
class Specimen:
    name: str
    # ffmpeg arguments after the inputs; `inputs` are lavfi graphs or extra input options.
    inputs: tuple
    output: tuple
    expect: Expect
    # A post-processing step on the written file ("truncate-half", "empty").
    damage: str | None = None
    # Extra files written beside (sidecars are not part of this zoo yet).
    extra: dict = field(default_factory=dict)


def video(size="640x360", rate=30, duration=4, source="testsrc2"):
    return ("-f", "lavfi", "-i", f"{source}=size={size}:rate={rate}:duration={duration}")


def tone(duration=4, frequency=440, rate=48000, layout="stereo"):
    return ("-f", "lavfi", "-i", f"sine=frequency={frequency}:sample_rate={rate}:duration={duration},"
            f"aformat=channel_layouts={layout}")


X264 = ("-c:v", "libx264", "-preset", "ultrafast")
AAC = ("-c:a", "aac", "-b:a", "96k")


def _zoo():
    s = []

    def add(name, inputs, output, expect, damage=None):
        s.append(Specimen(name, tuple(inputs), tuple(output), expect, damage))

    # Phones: portrait, tall and 4K portrait.
    add("portrait-720x1280.mp4", video("720x1280", duration=6) + tone(6),
        X264 + ("-pix_fmt", "yuv420p") + AAC, Expect(6, 720, 1280, audio=1))
    add("portrait-1080x1920.mp4", video("1080x1920", duration=3) + tone(3),
        X264 + ("-pix_fmt", "yuv420p") + AAC, Expect(3, 1080, 1920, audio=1))
    add("portrait-2160x3840.mp4", video("2160x3840", rate=24, duration=1.5) + tone(1.5),
        X264 + ("-pix_fmt", "yuv420p") + AAC, Expect(1.5, 2160, 3840, audio=1))
    # A display matrix, as phones write it (landscape pixels shown turned).
    for degrees, (w, h) in [(90, (360, 640)), (180, (640, 360)), (270, (360, 640))]:
        add(f"rotated-{degrees}.mp4", video(duration=4) + tone(4),
            X264 + ("-pix_fmt", "yuv420p") + AAC, Expect(4, w, h, audio=1), damage=f"rotate-{degrees}")
    add("rotated-90-hevc.mov", video("640x480", duration=3) + tone(3),
        ("-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=error")
        + AAC, Expect(3, 480, 640, audio=1), damage="rotate-90")
    # Non-square pixels (DV-like 720x576 at 16:15 is shown 768 wide) and odd sizes.
    add("anamorphic-720x576.mp4", video("720x576", rate=25, duration=4) + tone(4),
        ("-vf", "setsar=16/15") + X264 + ("-pix_fmt", "yuv420p") + AAC, Expect(4, 768, 576, audio=1))
    add("anamorphic-wide-720x480.mkv", video("720x480", duration=3) + tone(3),
        ("-vf", "setsar=32/27") + X264 + AAC, Expect(3, 853, 480, audio=1))
    add("odd-853x479.mp4", video("853x479", duration=3) + tone(3),
        ("-c:v", "mpeg4", "-q:v", "5") + AAC, Expect(3, 853, 479, audio=1))
    add("odd-641x361-h264.mkv", video("641x361", duration=3),
        X264 + ("-pix_fmt", "yuv444p"), Expect(3, 641, 361))
    # Chroma and bit depth.
    add("h264-422.mp4", video(duration=3) + tone(3), X264 + ("-pix_fmt", "yuv422p") + AAC, Expect(3, 640, 360, audio=1))
    add("h264-444.mp4", video(duration=3) + tone(3), X264 + ("-pix_fmt", "yuv444p") + AAC, Expect(3, 640, 360, audio=1))
    add("h264-high10.mp4", video(duration=3) + tone(3), X264 + ("-pix_fmt", "yuv420p10le") + AAC,
        Expect(3, 640, 360, audio=1))
    hevc10 = ("-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1")
    add("hevc-main10.mp4", video(duration=3) + tone(3), hevc10 + ("-x265-params", "log-level=error") + AAC,
        Expect(3, 640, 360, audio=1))
    add("hevc-hdr10.mp4", video(duration=3) + tone(3),
        hevc10 + ("-x265-params", "log-level=error:hdr10=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"
                  "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400",
                  "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc") + AAC,
        Expect(3, 640, 360, audio=1))
    add("hevc-hlg.mp4", video(duration=3) + tone(3),
        hevc10 + ("-x265-params", "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc",
                  "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc") + AAC,
        Expect(3, 640, 360, audio=1))
    # Other codecs and containers.
    add("vp9-opus.webm", video(duration=3) + tone(3),
        ("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k", "-c:a", "libopus"),
        Expect(3, 640, 360, audio=1))
    add("av1-opus.mkv", video("320x240", duration=2) + tone(2),
        ("-c:v", "libsvtav1", "-preset", "12", "-c:a", "libopus"), Expect(2, 320, 240, audio=1))
    add("mpeg2-interlaced.ts", video("720x576", rate=25, duration=4) + tone(4),
        ("-vf", "setsar=16/15", "-c:v", "mpeg2video", "-flags", "+ildct+ilme", "-top", "1", "-b:v", "3M", "-c:a", "mp2"),
        Expect(4, 768, 576, audio=1))
    add("mjpeg-pcm.avi", video("640x480", rate=15, duration=3) + tone(3),
        ("-c:v", "mjpeg", "-q:v", "5", "-c:a", "pcm_s16le"), Expect(3, 640, 480, audio=1))
    add("prores.mov", video("640x360", rate=24, duration=2) + tone(2),
        ("-c:v", "prores_ks", "-profile:v", "0", "-c:a", "pcm_s16le"), Expect(2, 640, 360, audio=1))
    add("theora-vorbis.ogv", video("480x270", duration=3) + tone(3), ("-c:v", "libtheora", "-q:v", "5", "-c:a", "libvorbis"),
        Expect(3, 480, 270, audio=1))
    add("wmv2-wma.wmv", video("320x240", duration=3) + tone(3), ("-c:v", "wmv2", "-c:a", "wmav2"), Expect(3, 320, 240, audio=1))
    add("h264-ac3.ts", video(duration=3) + tone(3, layout="5.1"), X264 + ("-c:a", "ac3"), Expect(3, 640, 360, audio=1))
    add("flv-h264.flv", video("480x270", duration=3) + tone(3, rate=44100), X264 + AAC, Expect(3, 480, 270, audio=1))
    # Audio layouts.
    add("surround-5.1.mp4", video(duration=3) + tone(3, layout="5.1"), X264 + AAC, Expect(3, 640, 360, audio=1))
    add("surround-7.1.mkv", video(duration=3) + tone(3, layout="7.1"), X264 + ("-c:a", "flac"), Expect(3, 640, 360, audio=1))
    add("mono-8khz.wav", tone(5, rate=8000, layout="mono"), ("-c:a", "pcm_s16le"), Expect(5, audio=1))
    add("flac-96khz.flac", tone(5, rate=96000), ("-c:a", "flac", "-sample_fmt", "s32"), Expect(5, audio=1))
    add("opus-audio.ogg", tone(4), ("-c:a", "libopus"), Expect(4, audio=1))
    # Languages and subtitles.
    add("two-languages-subs.mkv",
        video(duration=6) + tone(6, 440) + tone(6, 660) + ("-i", "{subs.srt}", "-i", "{subs.ass}"),
        ("-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s", "-map", "4:s") + X264 + AAC
        + ("-c:s:0", "srt", "-c:s:1", "ass", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
           "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=jpn"),
        Expect(6, 640, 360, audio=2, subtitles=2))
    add("mov-text-subs.mp4", video(duration=4) + tone(4) + ("-i", "{subs.srt}",),
        ("-map", "0:v", "-map", "1:a", "-map", "2:s") + X264 + AAC + ("-c:s", "mov_text", "-metadata:s:s:0", "language=eng"),
        Expect(4, 640, 360, audio=1, subtitles=1))
    # Music with tags, cover art and chapters.
    add("song-with-cover.mp3",
        tone(5) + ("-f", "lavfi", "-i", "testsrc2=size=300x300:duration=1,format=yuvj420p"),
        ("-map", "0:a", "-map", "1:v", "-frames:v", "1", "-c:a", "libmp3lame", "-c:v", "mjpeg", "-disposition:v", "attached_pic",
         "-id3v2_version", "3", "-metadata", "title=Zoo Song", "-metadata", "artist=The Generators",
         "-metadata", "album=Lavfi"), Expect(5, audio=1))
    add("audiobook-chapters.m4a", tone(6) + ("-i", "{chapters.txt}"),
        ("-map", "0:a", "-map_metadata", "1", "-map_chapters", "1") + AAC, Expect(6, audio=1))
    # Timing oddities.
    add("vfr-screen.mkv",
        ("-f", "lavfi", "-i", "testsrc2=size=960x540:rate=30:duration=5,select='not(mod(n\\,7))+lt(n\\,20)+gt(n\\,120)'"),
        X264 + ("-fps_mode", "vfr"), Expect(5, 960, 540))
    add("b-pyramid.mp4", video(duration=4) + tone(4),
        ("-c:v", "libx264", "-preset", "medium", "-bf", "4", "-x264-params", "b-pyramid=normal") + AAC,
        Expect(4, 640, 360, audio=1))
    add("audio-longer.mp4", video(duration=3) + tone(5), X264 + AAC, Expect(5, 640, 360, audio=1))
    add("video-longer.mp4", video(duration=5) + tone(3), X264 + AAC, Expect(5, 640, 360, audio=1))
    add("late-video.mkv", ("-itsoffset", "2") + video(duration=3) + tone(5), X264 + AAC, Expect(5, 640, 360, audio=1))
    add("sixty-fps.mp4", video("1280x720", rate=60, duration=2) + tone(2), X264 + AAC, Expect(2, 1280, 720, audio=1))
    add("ntsc-29.97.mov", video("640x480", rate="30000/1001", duration=3) + tone(3), X264 + AAC, Expect(3, 640, 480, audio=1))
    add("tiny-96x64.mp4", video("96x64", duration=3), X264, Expect(3, 96, 64))
    # Damaged files: a plain refusal, never a crash.
    add("truncated-moov-at-end.mp4", video(duration=4) + tone(4), X264 + AAC, Expect(fails=True), damage="truncate-half")
    add("truncated-faststart.mp4", video(duration=6) + tone(6), X264 + AAC + ("-movflags", "+faststart"),
        Expect(6, 640, 360, audio=1, partial=True), damage="truncate-half")
    add("zero-length.mp4", video(duration=1), X264, Expect(fails=True), damage="empty")
    add("not-media.mp4", video(duration=1), X264, Expect(fails=True), damage="text")
    return s


ZOO = _zoo()

# The held-out part: every fifth specimen by a fixed rule (not tuned on; run last).
HELD_OUT = {specimen.name for index, specimen in enumerate(ZOO) if index % 5 == 3}

SUBTITLES_SRT = """1
00:00:00,500 --> 00:00:02,000
Hello from the zoo

2
00:00:02,500 --> 00:00:04,000
Second line
"""

SUBTITLES_ASS = """[Script Info]
ScriptType: v4.00+
PlayResX: 640
PlayResY: 360

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,DejaVu Sans,28,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.50,0:00:02.00,Default,,0,0,0,,{\\i1}こんにちは{\\i0}
Dialogue: 0,0:00:02.50,0:00:04.00,Default,,0,0,0,,二行目
"""

CHAPTERS = """;FFMETADATA1
title=Zoo Audiobook
artist=The Generators
[CHAPTER]
TIMEBASE=1/1000
START=0
END=3000
title=One
[CHAPTER]
TIMEBASE=1/1000
START=3000
END=6000
title=Two
"""


def digest():
    text = json.dumps([[s.name, s.inputs, s.output, s.damage] for s in ZOO]) + SUBTITLES_SRT + SUBTITLES_ASS + CHAPTERS
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def build(folder: Path, only=None) -> dict:
    """Makes every specimen (or those named in `only`) in `folder`; returns name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    helpers = {"subs.srt": SUBTITLES_SRT, "subs.ass": SUBTITLES_ASS, "chapters.txt": CHAPTERS}
    for name, text in helpers.items():
        (folder / name).write_text(text)
    made = {}
    for specimen in ZOO:
        if only is not None and specimen.name not in only:
            continue
        target = folder / specimen.name
        if not target.exists():
            inputs = [str(folder / a[1:-1]) if a.startswith("{") and a.endswith("}") else a for a in specimen.inputs]
            partial = folder / f".partial-{specimen.name}"
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *inputs, *specimen.output,
                       "-f", _format(specimen.name), str(partial)]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                raise RuntimeError(f"ffmpeg could not make {specimen.name}: {result.stderr[-800:]}")
            _damage(partial, specimen.damage)
            os.replace(partial, target)
        made[specimen.name] = target
    return made


def _format(name):
    extension = name.rsplit(".", 1)[1]
    return {"mp4": "mp4", "m4a": "ipod", "mov": "mov", "mkv": "matroska", "webm": "webm", "ts": "mpegts", "avi": "avi",
            "ogv": "ogg", "ogg": "ogg", "wmv": "asf", "flv": "flv", "wav": "wav", "flac": "flac", "mp3": "mp3"}[extension]


def _damage(path: Path, damage):
    if damage and damage.startswith("rotate-"):
        _rotate(path, int(damage.split("-")[1]))
    elif damage == "truncate-half":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "text":
        path.write_text("This is a shopping list, not a video.\n" * 40)


def _rotate(path: Path, degrees: int):
    """Writes a phone's display matrix (clockwise `degrees`) into the first track header, as
    ffmpeg 5.1 no longer takes a `rotate` tag: the first track is the video in every recipe."""
    import struct
    data = bytearray(path.read_bytes())
    at = data.find(b"tkhd")
    assert at > 0, f"no tkhd in {path}"
    version = data[at + 4]
    # tkhd payload: version/flags(4), times+id+reserved+duration (v0: 20, v1: 32), reserved(8),
    # layer(2), group(2), volume(2), reserved(2), matrix(36), width(4), height(4).
    matrix_at = at + 4 + 4 + (32 if version == 1 else 20) + 8 + 8
    width = struct.unpack(">I", data[matrix_at + 36: matrix_at + 40])[0] >> 16
    height = struct.unpack(">I", data[matrix_at + 40: matrix_at + 44])[0] >> 16
    one = 0x10000
    matrix = {90: [0, one, 0, -one, 0, 0, height * one, 0, 0x40000000],
              180: [-one, 0, 0, 0, -one, 0, width * one, height * one, 0x40000000],
              270: [0, -one, 0, one, 0, 0, 0, width * one, 0x40000000]}[degrees]
    data[matrix_at: matrix_at + 36] = struct.pack(">9i", *matrix)
    if degrees % 180:
        data[matrix_at + 36: matrix_at + 44] = struct.pack(">II", height << 16, width << 16)
    path.write_bytes(bytes(data))


def default_folder() -> Path:
    return Path(tempfile.gettempdir()) / f"marquee-media-zoo-{digest()}"


if __name__ == "__main__":
    import sys
    made = build(Path(sys.argv[1]) if len(sys.argv) > 1 else default_folder())
    for name, path in made.items():
        print(f"{path.stat().st_size:>10}  {name}{'  (held out)' if name in HELD_OUT else ''}")
