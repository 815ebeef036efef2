// uncompile report: local script, no network. Link panel of compile pages (user line <-> graph
// nodes <-> kernels), the index filter and the guard-diff toggle. Everything shown is built with
// textContent / DOM nodes, never innerHTML of dump content.
(function () {
  "use strict";
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // index: filter functions
  var filter = document.getElementById("filter");
  if (filter) filter.addEventListener("input", function () {
    var q = filter.value.toLowerCase();
    var rows = document.querySelectorAll("#functions-table tbody tr");
    for (var i = 0; i < rows.length; i++) rows[i].hidden = q && rows[i].textContent.toLowerCase().indexOf(q) < 0;
  });

  // guard diff: only differences
  var only = document.getElementById("only-diff");
  if (only) only.addEventListener("change", function () {
    document.getElementById("gdiff").classList.toggle("only-diff", only.checked);
  });

  var data = document.getElementById("links");
  if (!data) return;
  var L = JSON.parse(data.textContent);
  var panel = document.getElementById("panel"), pbody = document.getElementById("panel-body");
  // line -> what it holds: "src-L11" -> {u: "11"}, "aot_forward-0-L12" -> {n: [...], k: [...]}
  var at = {};
  function put(id, key, v) { (at[id] = at[id] || {n: [], k: []})[key].push(v); }
  Object.keys(L.nodes).forEach(function (nid) { var n = L.nodes[nid]; if (n.line) put(n.s + "-L" + n.line, "n", nid); });
  Object.keys(L.kernels).forEach(function (kid) {
    var k = L.kernels[kid];
    if (k.line) put(k.s + "-L" + k.line, "k", kid);
    k.calls.forEach(function (c) { if (c !== k.line) put(k.s + "-L" + c, "k", kid); });
  });

  function nodeHref(nid) { var n = L.nodes[nid]; return n.line ? "#" + n.s + "-L" + n.line : null; }
  function kernelHref(kid) { var k = L.kernels[kid]; return k.line ? "#" + k.s + "-L" + k.line : null; }
  function userHref(u) { return L.users[String(u)] ? "#src-L" + u : null; }
  function link(href, text, cls) {
    var a = el(href ? "a" : "span", href ? {href: href} : null, text);
    if (cls) a.className = cls;
    return a;
  }
  function li(parent, children) { var x = el("li"); children.forEach(function (c) { x.appendChild(typeof c === "string" ? document.createTextNode(c) : c); }); parent.appendChild(x); return x; }
  function nodeItem(ul, nid, withUser) {
    var n = L.nodes[nid], kids = [link(nodeHref(nid), n.name, "pn-node"), " in " + (L.sections[n.s] || n.s)];
    if (n.target) kids.push(el("code", null, " " + n.target));
    if (withUser && n.u) { kids.push(" ← "); kids.push(link(userHref(n.u), "line " + n.u, "pn-user")); if (n.code) kids.push(el("code", null, " " + n.code)); }
    li(ul, kids);
  }
  function kernelItem(ul, kid) {
    var k = L.kernels[kid], kids = [link(kernelHref(kid), k.name, "pn-kernel"), " in " + (L.sections[k.s] || k.s)];
    if (k.inf) kids.push(el("span", {"class": "inf", title: "matched from the kernel's fused name; Inductor recorded no source nodes"}, " (inferred)"));
    li(ul, kids);
  }
  function group(title, items, fn) {
    if (!items.length) return;
    pbody.appendChild(el("div", {"class": "grp"}, title));
    var ul = el("ul"); items.forEach(function (x) { fn(ul, x); }); pbody.appendChild(ul);
  }
  function mark(ids) {
    var old = document.querySelectorAll(".l.rel, .l.sel");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("rel", "sel");
    ids.forEach(function (id, i) { var e = document.getElementById(id); if (e) e.classList.add(i === 0 ? "sel" : "rel"); });
  }
  function lineOfHref(h) { return h ? h.slice(1) : null; }

  function showUser(u) {
    var e = L.users[String(u)];
    pbody.textContent = "";
    var line = document.getElementById("src-L" + u);
    pbody.appendChild(el("h4", {id: "panel-title"}, "User line " + u));
    if (line) pbody.appendChild(el("code", null, line.querySelector(".t").textContent.trim()));
    var ids = ["src-L" + u];
    if (!e) { pbody.appendChild(el("p", null, "No graph node, guard or graph break recorded for this line.")); }
    else {
      group("Graph nodes (" + e.n.length + ")", e.n, function (ul, nid) { nodeItem(ul, nid, false); ids.push(lineOfHref(nodeHref(nid))); });
      group("Kernels (" + e.k.length + ")", e.k, function (ul, kid) { kernelItem(ul, kid); ids.push(lineOfHref(kernelHref(kid))); });
      group("Guards (" + e.g.length + ")", e.g, function (ul, gi) {
        var row = document.getElementById("guard-" + gi);
        li(ul, [link("#guard-" + gi, "guard " + gi), " " + (row ? row.children[2].textContent : "")]);
      });
      group("Graph breaks", e.b, function (ul, bi) { li(ul, [link("#break-" + bi, "graph break " + bi)]); });
    }
    finish(ids);
  }
  function showNode(nid) {
    var n = L.nodes[nid];
    pbody.textContent = "";
    pbody.appendChild(el("h4", {id: "panel-title"}, "Node " + n.name + " — " + (L.sections[n.s] || n.s)));
    var ids = [lineOfHref(nodeHref(nid))];
    if (n.target) pbody.appendChild(el("code", null, (n.op ? n.op + " " : "") + n.target));
    var ul = el("ul");
    if (n.u) {
      var kids = [link(userHref(n.u), "line " + n.u, "pn-user")];
      if (n.code) kids.push(el("code", null, " " + n.code));
      if (!userHref(n.u) && n.uf) kids.push(" (" + n.uf + ")");
      pbody.appendChild(el("div", {"class": "grp"}, "User line")); li(ul, kids); pbody.appendChild(ul);
      if (userHref(n.u)) ids.push("src-L" + n.u);
    } else pbody.appendChild(el("p", {"class": "nr"}, "No user line recorded for this node."));
    group("Kernels (" + n.k.length + ")", n.k, function (ul2, kid) { kernelItem(ul2, kid); ids.push(lineOfHref(kernelHref(kid))); });
    finish(ids);
  }
  function showKernel(kid) {
    var k = L.kernels[kid];
    pbody.textContent = "";
    pbody.appendChild(el("h4", {id: "panel-title"}, "Kernel " + k.name + " — " + (L.sections[k.s] || k.s)));
    if (k.inf) pbody.appendChild(el("p", {"class": "inf"}, "Nodes matched from the kernel's fused name (Inductor recorded no source nodes)."));
    if (k.aten && k.aten.length) pbody.appendChild(el("p", {"class": "aten"}, "ATen ops: " + k.aten.join(", ")));
    var ids = [lineOfHref(kernelHref(kid))];
    k.calls.forEach(function (c) { ids.push(k.s + "-L" + c); });
    group("Graph nodes (" + k.n.length + ")", k.n, function (ul, nid) { nodeItem(ul, nid, true); ids.push(lineOfHref(nodeHref(nid))); var u = L.nodes[nid].u; if (u && userHref(u)) ids.push("src-L" + u); });
    var users = [];
    k.n.forEach(function (nid) { var u = L.nodes[nid].u; if (u && users.indexOf(u) < 0) users.push(u); });
    group("User lines (" + users.length + ")", users, function (ul, u) {
      var line = document.getElementById("src-L" + u);
      li(ul, [link(userHref(u), "line " + u, "pn-user"), el("code", null, line ? " " + line.querySelector(".t").textContent.trim() : "")]);
    });
    finish(ids);
  }
  function finish(ids) {
    panel.hidden = false;
    mark(ids.filter(function (x) { return x; }));
  }
  function select(id, scroll) {
    if (!id) return false;
    var m = /^src-L(\d+)$/.exec(id);
    if (m) { showUser(m[1]); }
    else if (at[id] && at[id].k.length) showKernel(at[id].k[0]);
    else if (at[id] && at[id].n.length) showNode(at[id].n[0]);
    else return false;
    var e = document.getElementById(id);
    if (e && scroll) e.scrollIntoView({block: "center"});
    return true;
  }
  document.addEventListener("click", function (ev) {
    if (ev.target.closest("a, summary, #panel")) return;
    var line = ev.target.closest(".l[id]");
    if (!line) return;
    if (line.id.indexOf("src-L") === 0 || at[line.id]) {
      if (location.hash === "#" + line.id) select(line.id, false);
      else location.hash = line.id;
    }
  });
  window.addEventListener("hashchange", function () { select(location.hash.slice(1), true); });
  document.getElementById("panel-close").addEventListener("click", function () { panel.hidden = true; mark([]); });
  if (location.hash) select(location.hash.slice(1), true);
})();
