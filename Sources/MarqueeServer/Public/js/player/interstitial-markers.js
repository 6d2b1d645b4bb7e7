// Timeline marks for interstitial events: a point for point occupancy, a shaded band for a
// range of primary time. The ranges come derived from the session (`interstitials`).

/** The mark elements for `ranges` ({eventID, start, duration, occupancy, isHighlighted}) on an item of `duration` seconds. */
export function interstitialMarks(ranges, duration, title) {
  return (ranges ?? []).map((range) => {
    const mark = document.createElement('span');
    const left = duration ? (range.start / duration) * 100 : 0;
    const isRange = range.occupancy === 'range' && range.duration > 0;
    mark.className = isRange ? 'interstitial-range' : 'interstitial-point';
    mark.dataset.eventId = range.eventID;
    mark.dataset.occupancy = isRange ? 'range' : 'point';
    if (range.isHighlighted === false) mark.dataset.style = 'primary';
    if (isRange) {
      mark.style.left = `${left}%`;
      mark.style.width = `${duration ? (range.duration / duration) * 100 : 0}%`;
    } else {
      mark.style.left = `calc(${left}% - 2px)`;
    }
    mark.title = title;
    return mark;
  });
}
