// Opening the page's session: the session and the asset's manifest are asked for together
// (the manifest's URL follows from the asset), the session in the page's language with what
// the address asks (its speed list, language, Live Text, and how it begins: `?t=`, `?resume=1`,
// `?rate=`, `?autoplay=0`); the session says what it ignored, and carries out the start itself
// when the video is ready (a seek, the rate, play), so the page sends no intents to begin.
import { setLanguage } from '../i18n.js';

/** The body of `POST /api/sessions` for `assetID` and the page's address parameters. */
export function sessionRequest(assetID, params, languages) {
  const body = { assetID, languages: [...languages] };
  // The session reads the address's speed list and says what it ignored (see `warnings`).
  if (params.has('speeds')) body.speedList = params.get('speeds');
  if (params.has('lang')) body.language = params.get('lang');
  if (params.has('allowsVideoFrameAnalysis')) body.allowsVideoFrameAnalysis = params.get('allowsVideoFrameAnalysis') !== 'false';
  // `?resume=1` starts where the viewer stopped (the server knows); `?t=` (a search hit) otherwise.
  if (params.has('resume')) body.resume = true;
  const startAt = Number.parseFloat(params.get('t'));
  if (Number.isFinite(startAt) && startAt > 0) body.startTime = startAt;
  const rate = startRate(params);
  if (rate) body.rate = rate;
  body.autoplay = params.get('autoplay') !== '0';
  return body;
}

/**
 * Creates the session and fetches the manifest. Sets the page's language (the session's, or
 * the address's when the session could not be made) and calls `onLanguage` before anything
 * else is shown; throws with the server's message on failure.
 * @returns {Promise<{created: object, readManifest: () => Promise<object>}>} the manifest is read when asked for
 */
export async function openSession(assetID, params, { languages = navigator.languages, fallbackLanguage = navigator.language, onLanguage, fetch = globalThis.fetch, name = '' } = {}) {
  // An invitation link (`?together=`) joins its group's session instead of making one.
  const together = params.get('together');
  const opening = together
    ? fetch(`/api/together/${encodeURIComponent(together)}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: params.get('name') ?? name }) })
    : fetch('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sessionRequest(assetID, params, languages)) });
  const [response, manifestResponse] = await Promise.all([opening, fetch(`/api/assets/${encodeURIComponent(assetID)}/manifest.json`)]);
  const answer = await response.json();
  const created = together && response.ok ? { ...answer.state, participantID: answer.participantID } : answer;
  if (!response.ok) {
    setLanguage(params.get('lang') ?? fallbackLanguage?.slice(0, 2));
    onLanguage();
    throw new Error(created.error?.message ?? response.statusText);
  }
  setLanguage(created.language);
  onLanguage();
  const readManifest = async () => {
    const body = await manifestResponse.json();
    if (!manifestResponse.ok) throw new Error(body.error?.message ?? manifestResponse.statusText);
    return body;
  };
  return { created, readManifest };
}

/** The speed handed over by "Play on…" from another device (`?rate=`), if not the normal one. */
export function startRate(params) {
  const rate = Number.parseFloat(params.get('rate'));
  return Number.isFinite(rate) && rate > 0 && rate !== 1 ? rate : null;
}
