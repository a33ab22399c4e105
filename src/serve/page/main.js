// The router: shows the page for the location's hash (#/, #/board/ID[/TOKEN],
// #/table/ID/TOKEN, #/join/board|table/ID/CODE, #/playtest/ID) and starts the page. Comes last, so everything it calls is defined.

/* ================================================================ routing */

function route() {
  const r = enterRoute();
  const parts = location.hash.replace(/^#\/?/, '').split('/').map((p) => {
    try { return decodeURIComponent(p); } catch (e) { return p; }
  });
  const view = fill($('#view'));
  if (parts[0] === 'board' && parts[1]) showBoard(r, view, parts[1], parts[2] || null);
  else if (parts[0] === 'join' && parts[1] && parts[2] && parts[3]) showJoin(r, view, parts[1], parts[2], parts[3]);
  else if (parts[0] === 'table' && parts[1] && parts[2]) showTable(r, view, parts[1], parts[2]);
  else if (parts[0] === 'playtest' && parts[1]) showPlaytest(r, view, parts[1]);
  else showLobby(r, view);
}

/* ================================================================ start */

window.addEventListener('hashchange', route);
route();
