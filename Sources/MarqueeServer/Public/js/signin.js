// The sign-in page: signs in, or creates the owner account on a server that has none yet
// (with the one-time setup code printed in the server's console when it requires sign-in).
const strings = {
  en: {
    signIn: 'Sign in', createOwner: 'Create the owner account', name: 'User name', password: 'Password',
    nameRule: 'Letters A–Z and a–z, digits 0–9, “.”, “_”, “-” and “@”; 1 to 64 of them, no spaces.',
    nameRefused: '“{name}” can’t be a user name. Use letters A–Z and a–z, digits 0–9, “.”, “_”, “-” and “@” (1 to 64, no spaces).',
    confirm: 'Password again', setupCode: 'Setup code',
    codeHint: 'Printed in the server’s console when it started.',
    introSignIn: 'Sign in to watch and manage this library.',
    introSetup: 'This server has no owner yet. The owner can add media, change settings and invite others.',
    mismatch: 'The two passwords differ.', missing: 'Fill in every field.', failed: 'Could not reach the server.',
  },
  ja: {
    signIn: 'サインイン', createOwner: 'オーナーアカウントを作成', name: 'ユーザー名', password: 'パスワード',
    nameRule: '半角英字（A–Z、a–z）、数字（0–9）、「.」「_」「-」「@」で1〜64文字。スペースは使えません。',
    nameRefused: '「{name}」はユーザー名に使えません。半角英字（A–Z、a–z）、数字（0–9）、「.」「_」「-」「@」で1〜64文字にしてください（スペース不可）。',
    confirm: 'パスワード（確認）', setupCode: 'セットアップコード',
    codeHint: 'サーバーの起動時にコンソールに表示されたコードです。',
    introSignIn: 'このライブラリを見る・管理するにはサインインしてください。',
    introSetup: 'このサーバーにはまだオーナーがいません。オーナーはメディアの追加、設定の変更、他の人の招待ができます。',
    mismatch: '2つのパスワードが一致しません。', missing: 'すべての項目を入力してください。', failed: 'サーバーに接続できません。',
  },
};
const lang = (navigator.languages || [navigator.language]).map((l) => l.slice(0, 2)).find((l) => strings[l]) || 'en';
const t = (key, values = {}) => strings[lang][key].replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
document.documentElement.lang = lang;

const $ = (id) => document.getElementById(id);
const form = $('form');
const error = $('error');

/** Where to go after signing in: a path on this server only. */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next') || '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function show(message) {
  error.textContent = message;
  error.hidden = !message;
}

async function main() {
  let session = { needsOwner: false, mode: 'open' };
  try {
    session = await (await fetch('/api/auth/session', { cache: 'no-store' })).json();
  } catch { show(t('failed')); }
  const setup = session.needsOwner;
  $('name-label').textContent = t('name');
  $('password-label').textContent = t('password');
  $('confirm-label').textContent = t('confirm');
  $('code-label').textContent = t('setupCode');
  $('code-hint').textContent = t('codeHint');
  $('heading').textContent = setup ? t('createOwner') : t('signIn');
  document.title = `Marquee — ${setup ? t('createOwner') : t('signIn')}`;
  $('intro').textContent = setup ? t('introSetup') : t('introSignIn');
  $('submit').textContent = setup ? t('createOwner') : t('signIn');
  $('confirm-field').hidden = !setup;
  $('code-field').hidden = !(setup && session.mode === 'sign-in');
  $('password').autocomplete = setup ? 'new-password' : 'current-password';
  // A new account's name follows the server's rule (`namePattern`): said before anything is
  // typed, and checked as it is typed (the server checks again on submit).
  const rule = setup && session.namePattern ? new RegExp(session.namePattern) : null;
  const nameHint = $('name-hint');
  nameHint.hidden = !rule;
  nameHint.textContent = t('nameRule');
  const nameRefusal = () => {
    const name = $('name').value.trim();
    return rule && name && !rule.test(name) ? t('nameRefused', { name }) : '';
  };
  $('name').addEventListener('input', () => {
    const refusal = nameRefusal();
    $('name').setAttribute('aria-invalid', String(Boolean(refusal)));
    nameHint.classList.toggle('refused', Boolean(refusal));
    nameHint.textContent = refusal || t('nameRule');
  });
  form.hidden = false;
  (setup && session.mode === 'sign-in' ? $('setup-code') : $('name')).focus();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    show('');
    const name = $('name').value.trim();
    const password = $('password').value;
    if (!name || !password) return show(t('missing'));
    if (nameRefusal()) return show(nameRefusal());
    const body = { name, password };
    if (setup) {
      if (password !== $('confirm').value) return show(t('mismatch'));
      if (session.mode === 'sign-in') body.setupCode = $('setup-code').value;
    }
    $('submit').disabled = true;
    try {
      // keepalive: a person who leaves the page while the account is being made (a password
      // hash takes a moment) still gets the session cookie the answer carries; without it
      // the browser drops the request with the page, and the owner existed but was signed out.
      const response = await fetch(setup ? '/api/auth/setup' : '/api/auth/signin', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), keepalive: true,
      });
      if (response.ok) {
        location.replace(nextPath());
        return;
      }
      const problem = await response.json().catch(() => null);
      show(problem?.error?.message || `${response.status}`);
    } catch {
      show(t('failed'));
    } finally {
      $('submit').disabled = false;
    }
  });
}

main();
