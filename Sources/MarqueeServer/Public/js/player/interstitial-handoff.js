// Hand-offs between the primary's video element and the break's without a black frame: the
// element coming in is shown (or the one going out removed) only once it has presented a
// frame, so the viewer sees the last frame of one until the first frame of the other.

/** Resolves when `video` presents its next frame, or after `timeout` ms (never hangs). */
export function nextPresentedFrame(video, timeout = 300) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeout);
    if (!video.requestVideoFrameCallback) return;
    video.requestVideoFrameCallback(() => { clearTimeout(timer); resolve(); });
  });
}
