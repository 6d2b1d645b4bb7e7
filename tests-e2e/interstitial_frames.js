// Times every frame a viewer can see on the player page, for the ad-break transition tests and
// bench (tests-e2e/interstitial_frames.py, scripts/bench/interstitials.py). Injected before the
// page's scripts run (Page.addScriptToEvaluateOnNewDocument); frames collect in window.__frames
// as [kind ('video' for the primary, 'ad' for a break's element), the element's currentSrc
// (one per loaded ad), time in ms].
//
// Seen is the element in front: a break's element that is shown (not hidden, not prepared
// ahead and invisible, not pending behind the primary's held frame; the later one in the page
// when two are), else the primary. Each presented frame is timed with requestVideoFrameCallback
// (its expectedDisplayTime) and kept only if its element is in front once this rendering
// step's callbacks have run. An element brought to the front shows the frame it already
// decoded without presenting a new one: that paint is its first seen frame, timed one 60 Hz
// vsync after the animation frame that paints it.
(() => {
  window.__frames = [];
  document.addEventListener('DOMContentLoaded', () => {
    const primary = document.getElementById('video');
    const ads = [...document.querySelectorAll('video.interstitial-video')];
    const front = () => ads.filter((ad) => !ad.hidden && !('preparing' in ad.dataset) && !('pending' in ad.dataset)).at(-1) ?? primary;
    const record = (element, time) => window.__frames.push([element === primary ? 'video' : 'ad', element.currentSrc || '', time]);
    let shown = front();
    const observer = new MutationObserver(() => {
      const now = front();
      if (now !== shown && now.readyState >= 2) requestAnimationFrame((time) => record(now, time + 1000 / 60));
      shown = now;
    });
    for (const ad of ads) observer.observe(ad, { attributes: true, attributeFilter: ['hidden', 'data-pending', 'data-preparing'] });
    for (const element of [primary, ...ads]) {
      if (!element.requestVideoFrameCallback) continue;
      const each = (now, meta) => {
        setTimeout(() => { if (front() === element) record(element, meta.expectedDisplayTime ?? now); }, 0);
        element.requestVideoFrameCallback(each);
      };
      element.requestVideoFrameCallback(each);
    }
  });
})();
