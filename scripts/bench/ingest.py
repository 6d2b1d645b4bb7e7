"""Ingest benchmark (see ingest.sh): Marquee's packager against one ffmpeg command making the
same ladder; then the per-job cost of running media work in a child process."""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(command):
    """Runs a command; returns (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def source(duration):
    folder = Path(".build/bench-media")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"ingest-1080p-{duration}s.mp4"
    if not path.exists():
        print(f"generating {path} ({duration} s, 1920x1080, 30 fps, H.264 + AAC)...", flush=True)
        partial = path.with_suffix(".partial.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                        "-f", "lavfi", "-i", f"testsrc2=s=1920x1080:r=30:d={duration}",
                        "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={duration}",
                        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
                        str(partial)], check=True)
        partial.rename(path)
    return path


def ffmpeg_ladder(src, out):
    """The same renditions as Marquee's ladder, in one command: decode once, split, scale, encode."""
    out.mkdir(parents=True)
    x264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "21", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p"]
    hls = ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"]
    command = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", str(src),
               "-filter_complex", "[0:v]split=2[a][b];[a]scale=1280:720:flags=bicubic[v720];[b]scale=640:360:flags=bicubic[v360]"]
    for name in ("v720", "v360"):
        (out / name).mkdir()
        command += ["-map", f"[{name}]", *x264, *hls, "-hls_segment_filename", str(out / name / "segment-%05d.m4s"),
                    str(out / name / "index.m3u8")]
    (out / "audio").mkdir()
    command += ["-map", "0:a", "-c:a", "copy", *hls, "-hls_segment_filename", str(out / "audio" / "segment-%05d.m4s"),
                str(out / "audio" / "index.m3u8")]
    return command


def main():
    marquee, duration, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    src = source(duration)
    work = Path(tempfile.mkdtemp(prefix="marquee-ingest-bench-"))
    results = {"marquee": [], "ffmpeg": []}
    try:
        for index in range(runs):
            for name in ("marquee", "ffmpeg"):
                out = work / f"{name}-{index}"
                command = ([marquee, "package", str(src), "--out", str(out), "--ladder", "720,360", "--segment-duration", "2",
                            "--json"] if name == "marquee" else ffmpeg_ladder(src, out))
                wall, cpu = run(command)
                results[name].append((wall, cpu))
                print(f"  {name:8} run {index + 1}: {wall:7.1f} s wall, {cpu:7.1f} s CPU ({cpu / wall:.2f} cores busy)", flush=True)
                shutil.rmtree(out, ignore_errors=True)
        m_wall = statistics.median(w for w, _ in results["marquee"])
        f_wall = statistics.median(w for w, _ in results["ffmpeg"])
        m_cpu = statistics.median(c for _, c in results["marquee"])
        f_cpu = statistics.median(c for _, c in results["ffmpeg"])
        minutes = duration / 60
        print(f"ingest of {duration} s of 1080p into 720p + 360p (median of {runs}):")
        print(f"  marquee {m_wall:.1f} s wall, {m_cpu / minutes:.1f} CPU s per minute of video")
        print(f"  ffmpeg  {f_wall:.1f} s wall, {f_cpu / minutes:.1f} CPU s per minute of video")
        print(f"  speed ratio (ffmpeg time / marquee time): {f_wall / m_wall:.2f}x   CPU ratio: {f_cpu / m_cpu:.2f}x")

        # Isolation: one probe in a child process (`media-work`, as the server runs it) against
        # the same probe in a process of its own (`marquee probe`): both start a process, so the
        # difference is the protocol; the start itself is what isolation adds to each step.
        small = work / "small.mp4"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                        "testsrc2=s=320x240:r=30:d=2", "-c:v", "libx264", "-preset", "ultrafast", str(small)], check=True)
        request = json.dumps({"probe": {"source": str(small)}})
        child = [run([marquee, "media-work", request]) for _ in range(10)]
        version = [run([marquee, "--help"]) for _ in range(10)]
        start_cost = statistics.median(w for w, _ in version)
        child_cost = statistics.median(w for w, _ in child)
        print(f"isolation: a media-work child probing a file takes {child_cost * 1000:.0f} ms "
              f"(of which starting the marquee process: {start_cost * 1000:.0f} ms); a library job runs 2 children "
              f"(probe, package): about {2 * start_cost * 1000:.0f} ms per job, "
              f"{2 * start_cost / m_wall * 100:.2f} % of this file's packaging")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
