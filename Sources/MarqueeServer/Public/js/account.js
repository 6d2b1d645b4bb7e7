// The account page: who is signed in, sign out, password, API tokens, and (for the owner)
// the people who may sign in.
const strings = {
  en: {
    account: 'Account', library: 'Library', signedIn: 'Signed in', signOut: 'Sign out', changePassword: 'Change password',
    currentPassword: 'Current password', newPassword: 'New password', change: 'Change', changed: 'Password changed.',
    tokens: 'API tokens', tokensIntro: 'For scripts: send “Authorization: Bearer TOKEN”. A token is shown once.',
    tokenName: 'What it is for', create: 'Create', revoke: 'Revoke', people: 'People', name: 'Name', password: 'Password',
    add: 'Add', remove: 'Remove', owner: 'Owner', viewer: 'Viewer', local: 'You are using this server from its own machine, as its owner, without an account.',
    as: '{name} ({role})', lastUsed: 'last used {d}', copyNow: 'Copy it now: {t}',
  },
  ja: {
    account: 'アカウント', library: 'ライブラリ', signedIn: 'サインイン中', signOut: 'サインアウト', changePassword: 'パスワードの変更',
    currentPassword: '現在のパスワード', newPassword: '新しいパスワード', change: '変更', changed: 'パスワードを変更しました。',
    tokens: 'APIトークン', tokensIntro: 'スクリプト用：「Authorization: Bearer トークン」を送信します。トークンは一度だけ表示されます。',
    tokenName: '用途', create: '作成', revoke: '取り消す', people: 'ユーザー', name: '名前', password: 'パスワード',
    add: '追加', remove: '削除', owner: 'オーナー', viewer: '視聴者', local: 'このサーバーのマシンから、アカウントなしでオーナーとして使用しています。',
    as: '{name}（{role}）', lastUsed: '最終使用 {d}', copyNow: '今すぐコピーしてください：{t}',
  },
};
const lang = (navigator.languages || [navigator.language]).map((l) => l.slice(0, 2)).find((l) => strings[l]) || 'en';
const t = (key, values = {}) => strings[lang][key].replace(/\{(\w+)\}/g, (_, k) => values[k] ?? '');
document.documentElement.lang = lang;
const $ = (id) => document.getElementById(id);

async function api(path, options = {}) {
  const response = await fetch(path, {
    cache: 'no-store', ...options,
    headers: options.body ? { 'Content-Type': 'application/json' } : {},
  });
  if (response.status === 401) { location.replace(`/signin?next=${encodeURIComponent('/account')}`); throw new Error('signed out'); }
  if (!response.ok) {
    const problem = await response.json().catch(() => null);
    throw new Error(problem?.error?.message || `${response.status}`);
  }
  return response.status === 204 ? null : response.json();
}

function fail(error) {
  $('error').textContent = error.message;
  $('error').hidden = false;
}

function row(text, detail, button, onClick) {
  const li = document.createElement('li');
  const main = document.createElement('span');
  main.className = 'grow';
  main.textContent = text;
  const small = document.createElement('small');
  small.textContent = detail;
  const action = document.createElement('button');
  action.type = 'button';
  action.textContent = button;
  action.addEventListener('click', () => onClick().catch(fail));
  li.append(main, small, action);
  return li;
}

async function loadTokens() {
  const { tokens } = await api('/api/tokens');
  $('tokens').replaceChildren(...tokens.map((token) => row(token.name, t('lastUsed', { d: new Date(token.lastUsedAt).toLocaleString(lang) }),
    t('revoke'), async () => { await api(`/api/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' }); await loadTokens(); })));
}

async function loadUsers() {
  const { users } = await api('/api/users');
  $('users').replaceChildren(...users.map((user) => row(user.name, t(user.role), t('remove'),
    async () => { await api(`/api/users/${encodeURIComponent(user.name)}`, { method: 'DELETE' }); await loadUsers(); })));
}

async function main() {
  for (const [id, key] of [['account-title', 'account'], ['library-link', 'library'], ['who-title', 'signedIn'], ['signout', 'signOut'],
    ['password-title', 'changePassword'], ['password-submit', 'change'], ['tokens-title', 'tokens'], ['tokens-intro', 'tokensIntro'],
    ['token-submit', 'create'], ['users-title', 'people'], ['user-submit', 'add']]) $(id).textContent = t(key);
  $('current-password').placeholder = t('currentPassword');
  $('new-password').placeholder = t('newPassword');
  $('token-name').placeholder = t('tokenName');
  $('user-name').placeholder = t('name');
  $('user-password').placeholder = t('password');
  $('user-role').options[0].textContent = t('viewer');
  $('user-role').options[1].textContent = t('owner');
  document.title = `Marquee — ${t('account')}`;

  const session = await api('/api/auth/session');
  const account = session.account;
  const hasAccount = session.signedIn;
  $('who').textContent = hasAccount ? t('as', { name: account.name, role: t(account.role === 'owner' ? 'owner' : 'viewer') }) : t('local');
  $('signout').hidden = !hasAccount;
  $('password-section').hidden = !hasAccount;
  $('tokens-section').hidden = !hasAccount;
  $('users-section').hidden = account?.role !== 'owner';

  $('signout').addEventListener('click', async () => {
    await api('/api/auth/signout', { method: 'POST' }).catch(() => {});
    location.replace('/signin');
  });
  $('password-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('/api/auth/password', { method: 'PUT', body: JSON.stringify({ currentPassword: $('current-password').value, newPassword: $('new-password').value }) })
      .then(() => { $('password-status').textContent = t('changed'); $('password-form').reset(); }).catch(fail);
  });
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('/api/tokens', { method: 'POST', body: JSON.stringify({ name: $('token-name').value }) }).then((token) => {
      $('new-token').textContent = t('copyNow', { t: token.token });
      $('new-token').hidden = false;
      $('token-form').reset();
      return loadTokens();
    }).catch(fail);
  });
  $('user-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('/api/users', { method: 'POST', body: JSON.stringify({ name: $('user-name').value.trim(), password: $('user-password').value, role: $('user-role').value }) })
      .then(() => { $('user-form').reset(); return loadUsers(); }).catch(fail);
  });
  if (hasAccount) await loadTokens();
  if (account?.role === 'owner') await loadUsers();
}

main().catch(fail);
