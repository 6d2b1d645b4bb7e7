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
 * Asks for the session (or, with an invitation link, `?together=`, to join its group's) and
 * for the asset's manifest, both at once; the answers are read by `openSession`.
 * @returns {{opening: Promise<Response>, manifest: Promise<Response>}}
 */
export function askForSession(assetID, params, { languages = navigator.languages, fetch = globalThis.fetch, name = '' } = {}) {
  const together = params.get('together');
  const opening = together
    ? fetch(`/api/together/${encodeURIComponent(together)}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: params.get('name') ?? name }) })
    : fetch('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sessionRequest(assetID, params, languages)) });
  const manifest = fetch(`/api/assets/${encodeURIComponent(assetID)}/manifest.json`);
  // Read by `openSession`; a failure is met there.
  opening.catch(() => {});
  manifest.catch(() => {});
  return { opening, manifest };
}

let early = null;

/** The asset a player page's address names (`/watch/{id}`). */
export function pageAssetID(pathname = location.pathname) {
  return decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
}

/**
 * The page's one `askForSession`, made by whichever comes first: the small boot module
 * (`boot.js`, which runs as soon as its three files are there) or the player itself. The
 * session is then being made while the player's seventy-odd modules load.
 */
export function earlySession(assetID, params) {
  early ??= askForSession(assetID, params);
  return early;
}

/**
 * Creates the session and fetches the manifest (or reads the answers to `asked`, an earlier
 * `askForSession`). Sets the page's language (the session's, or the address's when the
 * session could not be made) and calls `onLanguage` before anything else is shown; throws
 * with the server's message on failure.
 * @returns {Promise<{created: object, readManifest: () => Promise<object>}>} the manifest is read when asked for
 */
export async function openSession(assetID, params, { asked, languages = navigator.languages, fallbackLanguage = navigator.language, onLanguage, fetch = globalThis.fetch, name = '' } = {}) {
  const together = params.get('together');
  const { opening, manifest } = asked ?? askForSession(assetID, params, { languages, fetch, name });
  const [response, manifestResponse] = await Promise.all([opening, manifest]);
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
