// The sign-in page: signs in, or creates the owner account on a server that has none yet
// (with the one-time setup code printed in the server's console when it requires sign-in).
const strings = {
  en: {
    signIn: 'Sign in', createOwner: 'Create the owner account', name: 'Name', password: 'Password',
    confirm: 'Password again', setupCode: 'Setup code',
    codeHint: 'Printed in the server’s console when it started.',
    introSignIn: 'Sign in to watch and manage this library.',
    introSetup: 'This server has no owner yet. The owner can add media, change settings and invite others.',
    mismatch: 'The two passwords differ.', missing: 'Fill in every field.', failed: 'Could not reach the server.',
  },
  ja: {
    signIn: 'サインイン', createOwner: 'オーナーアカウントを作成', name: '名前', password: 'パスワード',
    confirm: 'パスワード（確認）', setupCode: 'セットアップコード',
    codeHint: 'サーバーの起動時にコンソールに表示されたコードです。',
    introSignIn: 'このライブラリを見る・管理するにはサインインしてください。',
    introSetup: 'このサーバーにはまだオーナーがいません。オーナーはメディアの追加、設定の変更、他の人の招待ができます。',
    mismatch: '2つのパスワードが一致しません。', missing: 'すべての項目を入力してください。', failed: 'サーバーに接続できません。',
  },
};
const lang = (navigator.languages || [navigator.language]).map((l) => l.slice(0, 2)).find((l) => strings[l]) || 'en';
const t = (key) => strings[lang][key];
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
  form.hidden = false;
  (setup && session.mode === 'sign-in' ? $('setup-code') : $('name')).focus();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    show('');
    const name = $('name').value.trim();
    const password = $('password').value;
    if (!name || !password) return show(t('missing'));
    const body = { name, password };
    if (setup) {
      if (password !== $('confirm').value) return show(t('mismatch'));
      if (session.mode === 'sign-in') body.setupCode = $('setup-code').value;
    }
    $('submit').disabled = true;
    try {
      const response = await fetch(setup ? '/api/auth/setup' : '/api/auth/signin', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
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
