/* a2a-docgen catalogue script: the home page's filter and the catalogue search.
 *
 * Loaded on every page of the site; it acts only on a catalogue home page: an element with id "agents"
 * inside ".a2a-page" (the plugin's wrapper), or, in pages built from `a2a-docgen build` output by another
 * engine (Zensical), the "Agents" heading of the page at the catalogue's root. There it inserts one form
 * after the "Agents" heading:
 *
 * - a text box and facet lists (tag, media type, authentication, binding, provider, A2A version) that
 *   narrow every agent of the catalogue, from catalogue-filter.json at the catalogue's root (its format:
 *   a2a_docgen/render/filter_index.py), shown 100 at a time, with a live count;
 * - full-text results from Pagefind (pagefind/pagefind.js at the catalogue's root, when the site has it)
 *   for the same text and facets, one result per skill, titled "Agent › Skill".
 *
 * The state lives in location.hash (#q=route&tag=maps), so a filtered view can be linked to. Without the
 * JSON (a page opened from file://, where browsers refuse to fetch), the text box filters the static list
 * of the current page instead. No external requests, no eval, no inline handlers or styles: it works on
 * any static host and under a strict Content-Security-Policy (Pagefind itself needs 'wasm-unsafe-eval').
 * Card text is only ever set as text, never parsed as HTML.
 */
(function () {
  "use strict";

  var SCRIPT_PATH = /assets\/a2a-docgen\/catalogue\.js(?:[?#].*)?$/;
  var PAGE_SIZE = 100;
  var HIT_PAGES = 8; // Pagefind pages whose details a search loads at a time (one fragment request each)
  var HITS_PER_AGENT = 3;
  var DEBOUNCE_MS = 60; // Pagefind's preload of the word's index starts at once; the search waits for a pause
  var FACETS = [
    ["tag", "Tag", "Any tag"],
    ["media", "Media type", "Any media type"],
    ["auth", "Authentication", "Any authentication"],
    ["binding", "Binding", "Any binding"],
    ["provider", "Provider", "Any provider"],
    ["era", "A2A version", "Any version"],
  ];
  var KEYS = ["q"].concat(FACETS.map(function (f) { return f[0]; }));
  var SERVE_HINT = "python3 -m http.server -d site";

  var ROOT = catalogueRoot();
  var numbers = new Intl.NumberFormat("en");

  function catalogueRoot() {
    var script = document.currentScript;
    var src = script && script.src;
    if (!src || !SCRIPT_PATH.test(src)) {
      var found = document.querySelector('script[src*="assets/a2a-docgen/catalogue.js"]');
      src = found ? found.src : "";
    }
    if (src && SCRIPT_PATH.test(src)) return src.replace(SCRIPT_PATH, "");
    return new URL(".", location.href).href;
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (name) {
        var value = attrs[name];
        if (value === null || value === undefined || value === false) return;
        if (name === "text") node.textContent = value;
        else node.setAttribute(name, value === true ? "" : value);
      });
    }
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function plural(n, one, many) {
    return numbers.format(n) + " " + (n === 1 ? one : many);
  }

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(Boolean);
  }

  function pageHref(url) {
    var href = new URL(url, ROOT).href;
    // Opened from disk, a directory URL shows a listing: point at the page itself.
    if (location.protocol === "file:" && /\/(?:[?#]|$)/.test(href)) {
      href = href.replace(/\/(?=[?#]|$)/, "/index.html");
    }
    return href;
  }

  // -- state in the hash ---------------------------------------------------------------------------------

  function readHash() {
    var raw = location.hash.slice(1);
    if (raw.indexOf("=") < 0) return null; // an anchor (#agents), not a filter state
    var params = new URLSearchParams(raw);
    var state = {};
    KEYS.forEach(function (key) { state[key] = params.get(key) || ""; });
    return state;
  }

  function writeHash(state) {
    var params = new URLSearchParams();
    KEYS.forEach(function (key) { if (state[key]) params.set(key, state[key]); });
    var text = params.toString();
    var url = location.pathname + location.search + (text ? "#" + text : "");
    if (url !== location.pathname + location.search + location.hash) {
      history.replaceState(history.state, "", url);
    }
  }

  function isEmpty(state) {
    return KEYS.every(function (key) { return !state[key]; });
  }

  // -- the catalogue's agents ----------------------------------------------------------------------------

  function loadCatalogue() {
    if (location.protocol === "file:") return Promise.reject(new Error("file://"));
    return fetch(ROOT + "catalogue-filter.json").then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (data) {
      if (!data || data.version !== 1 || !Array.isArray(data.agents)) throw new Error("unknown format");
      return catalogueFrom(data);
    });
  }

  function catalogueFrom(data) {
    var facets = data.facets || {};
    function names(kind, indexes) {
      var values = facets[kind] || [];
      return (indexes || []).map(function (i) { return values[i]; }).filter(function (v) { return v !== undefined; });
    }
    var eras = {};
    var agents = data.agents.map(function (row) {
      var agent = {
        name: String(row[0] || ""),
        url: String(row[1] || ""),
        summary: String(row[2] || ""),
        provider: row[3] >= 0 && facets.provider ? facets.provider[row[3]] || "" : "",
        skills: row[4] || 0,
        tag: names("tag", row[5]),
        media: names("media", row[6]),
        auth: names("auth", row[7]),
        binding: names("binding", row[8]),
        era: row[9] ? String(row[9]) : "",
        words: String(row[10] || ""),
        grade: row[11] ? String(row[11]) : "",
        host: row[12] ? String(row[12]) : "",
      };
      agent.values = {
        tag: agent.tag, media: agent.media, auth: agent.auth, binding: agent.binding,
        provider: agent.provider ? [agent.provider] : [], era: agent.era ? [agent.era] : [],
      };
      agent.text = [agent.name, agent.summary, agent.provider, agent.tag.join(" "), agent.media.join(" "),
        agent.auth.join(" "), agent.binding.join(" "), agent.era, agent.words].join(" ").toLowerCase();
      if (agent.era) eras[agent.era] = true;
      return agent;
    });
    var values = {};
    FACETS.forEach(function (f) { values[f[0]] = (facets[f[0]] || []).slice(); });
    values.era = Object.keys(eras).sort().reverse();
    return { agents: agents, values: values, search: data.search === "pagefind" };
  }

  function matches(agent, query, state, skip) {
    for (var i = 0; i < FACETS.length; i++) {
      var key = FACETS[i][0];
      if (key !== skip && state[key] && agent.values[key].indexOf(state[key]) < 0) return false;
    }
    for (var j = 0; j < query.length; j++) if (agent.text.indexOf(query[j]) < 0) return false;
    return true;
  }

  function agentItem(agent) {
    var facts = [];
    if (agent.provider) facts.push(agent.provider);
    facts.push(plural(agent.skills, "skill", "skills"));
    facts.push(agent.auth.length ? agent.auth.join(", ") : "no authentication");
    if (agent.binding.length) facts.push(agent.binding.join(", "));
    if (agent.era) facts.push("A2A " + agent.era);
    if (agent.tag.length) {
      var shown = agent.tag.slice(0, 6).join(", ");
      facts.push("tags " + shown + (agent.tag.length > 6 ? " and " + (agent.tag.length - 6) + " more" : ""));
    }
    if (agent.grade) facts.push("grade " + agent.grade);
    var children = [];
    if (/^[A-F]$/.test(agent.grade)) {
      children.push(el("strong", { class: "a2a-grade a2a-grade-" + agent.grade.toLowerCase(), text: agent.grade }), " ");
    }
    children.push(el("a", { href: pageHref(agent.url), text: agent.name }));
    if (agent.host) children.push(" (" + agent.host + ")");
    if (agent.summary) children.push(": " + agent.summary);
    children.push(el("ul", null, [el("li", { text: facts.join(" · ") })]));
    return el("li", null, children);
  }

  // -- Pagefind ------------------------------------------------------------------------------------------

  var onHashChange = null; // the current home page's, replaced on each page of an instant navigation
  window.addEventListener("hashchange", function () { if (onHashChange) onHashChange(); });

  var pagefind = null; // a promise of the module, once the site is known to have a search index
  // The plugin marks the home page when it writes the index (data-a2a-search); on a site an engine built
  // from a2a-docgen build output, `a2a-docgen search-index` marks catalogue-filter.json ("search").
  var hasSearchIndex = false;
  var indexHasFacets = false; // the plugin's index carries the facets as filters; an engine's does not

  function loadPagefind() {
    if (pagefind) return pagefind;
    if (location.protocol === "file:" || !hasSearchIndex) return Promise.resolve(null);
    var url = ROOT + "pagefind/pagefind.js";
    pagefind = import(url).then(function (module) {
      return Promise.resolve(module.options({ baseUrl: new URL(ROOT).pathname, excerptLength: 24 }))
        .then(function () { return module.init ? module.init() : null; })
        .then(function () { return module; });
    }).catch(function () { return null; });
    return pagefind;
  }

  function pagefindFilters(state) {
    var filters = {};
    if (!indexHasFacets) return filters; // narrowed by the catalogue instead (see facetsAllow)
    FACETS.forEach(function (f) { if (state[f[0]]) filters[f[0]] = state[f[0]]; });
    return filters;
  }

  function cleanHeading(text) {
    return String(text || "").replace(/\s*[¶#§🔗]\s*$/u, "").trim();
  }

  /* One page's Pagefind data as hits: one per skill (or other section) the words were found in. */
  function hitsOf(data) {
    var title = cleanHeading(data.meta && data.meta.title) || data.url;
    var anchors = (data.anchors || []).filter(function (a) { return /^h\d$/i.test(a.element) && a.id; })
      .sort(function (a, b) { return a.location - b.location; });
    var sections = {};
    var order = [];
    (data.sub_results || []).forEach(function (sub) {
      var at = sub.anchor ? sub.anchor.location : -1;
      var section = null;
      for (var i = 0; i < anchors.length; i++) {
        if (anchors[i].location > at) break;
        if (/^h2$/i.test(anchors[i].element)) section = anchors[i];
      }
      var key = section ? section.id : "";
      if (!sections[key]) {
        sections[key] = {
          agent: title,
          section: section ? cleanHeading(section.text) : "",
          skill: !!section && section.id.indexOf("skill-") === 0,
          url: data.url.split("#")[0] + (section ? "#" + section.id : ""),
          excerpt: sub.excerpt || "",
        };
        order.push(key);
      }
    });
    if (!order.length) {
      return [{ agent: title, section: "", skill: false, url: data.url, excerpt: data.excerpt || "" }];
    }
    // Skills first, in the order Pagefind ranked their sections.
    var hits = order.map(function (key) { return sections[key]; });
    return hits.filter(function (h) { return h.skill; }).concat(hits.filter(function (h) { return !h.skill; }));
  }

  /* Pagefind's excerpt is text with "<" and ">" escaped and the matches in <mark>: rebuilt as nodes. */
  function excerptNode(excerpt) {
    var node = el("p", { class: "a2a-hit__excerpt" });
    String(excerpt).split(/(<mark>|<\/mark>)/).reduce(function (marked, part) {
      if (part === "<mark>") return true;
      if (part === "</mark>") return false;
      if (part) {
        var text = part.replace(/&lt;/g, "<").replace(/&gt;/g, ">");
        node.appendChild(marked ? el("mark", { text: text }) : document.createTextNode(text));
      }
      return marked;
    }, false);
    return node;
  }

  function hitItem(hit) {
    var title = [el("span", { class: "a2a-hit__agent", text: hit.agent })];
    if (hit.section) {
      title.push(el("span", { class: "a2a-hit__sep", text: " › " }));
      title.push(el("span", { class: "a2a-hit__skill", text: hit.section }));
    }
    return el("li", { class: "a2a-hit" + (hit.skill ? " a2a-hit--skill" : "") }, [
      el("a", { class: "a2a-hit__title", href: pageHref(hit.url) }, title),
      excerptNode(hit.excerpt),
    ]);
  }

  // -- the form ------------------------------------------------------------------------------------------

  function setUp(heading) {
    var page = heading.closest(".a2a-page");
    if (!page) {
      // Built without the plugin: the heading's container is the page's content, ours (see homeHeading).
      page = heading.parentElement;
      page.classList.add("a2a-page", "a2a-page-list");
    }
    if (page.querySelector(".a2a-filter")) return;
    hasSearchIndex = indexHasFacets = page.getAttribute("data-a2a-search") === "pagefind";

    // The static list: everything up to the next section, its agents in one list or in one list per provider
    // (each under its heading).
    var staticNodes = [];
    for (var node = heading.nextElementSibling; node && !/^H[12]$/.test(node.tagName); node = node.nextElementSibling) {
      staticNodes.push(node);
    }
    var staticLists = staticNodes.filter(function (n) { return n.tagName === "UL" || n.tagName === "OL"; });
    if (!staticLists.length) return;
    var staticItems = [];
    staticLists.forEach(function (list) {
      Array.prototype.forEach.call(list.children, function (li) { if (li.tagName === "LI") staticItems.push(li); });
    });

    var ids = "a2a-filter";
    var query = el("input", {
      type: "search", id: ids + "-q", name: "q", autocomplete: "off", spellcheck: "false",
      placeholder: "Name, skill, tag, example words…",
    });
    var selects = {};
    var facetBox = el("div", { class: "a2a-filter__facets", id: ids + "-facets" });
    FACETS.forEach(function (f) {
      var select = el("select", { id: ids + "-" + f[0], name: f[0] });
      selects[f[0]] = select;
      facetBox.appendChild(el("div", { class: "a2a-filter__facet" }, [
        el("label", { for: select.id, text: f[1] }), select,
      ]));
    });
    var clear = el("button", { type: "reset", class: "a2a-filter__clear", text: "Clear" });
    facetBox.appendChild(el("div", { class: "a2a-filter__facet a2a-filter__facet--clear" }, [clear]));
    var facetSummary = el("button", {
      type: "button", class: "a2a-filter__toggle", "aria-expanded": "false", "aria-controls": facetBox.id,
      text: "Filters",
    });
    var facetDetails = el("div", { class: "a2a-filter__more", hidden: true }, [facetSummary, facetBox]);
    var scope = el("p", {
      id: ids + "-scope", class: "a2a-filter__scope",
      text: "Searches the catalogue's agents: their names, descriptions, tags and skills, and the full text of " +
        "their pages. The site's own search box searches every page of the site, section by section.",
    });
    query.setAttribute("aria-describedby", ids + "-scope " + ids + "-status");
    var status = el("p", { id: ids + "-status", class: "a2a-filter__status", role: "status", "aria-live": "polite" });
    var note = el("p", { class: "a2a-filter__note", hidden: true });
    var form = el("form", { class: "a2a-filter", role: "search", "aria-label": "Agents" }, [
      el("div", { class: "a2a-filter__query" }, [
        el("label", { for: query.id, text: "Search the agents and their skills" }), query, scope,
      ]),
      facetDetails, status, note,
    ]);

    var hitsHeading = el("h3", { id: ids + "-hits-title", class: "a2a-results__title" });
    var hitsList = el("ol", { class: "a2a-hits" });
    var hitsMore = el("button", { type: "button", class: "a2a-more", hidden: true, text: "More results" });
    var hitsBox = el("section", { class: "a2a-hits-box", "aria-labelledby": hitsHeading.id, hidden: true },
      [hitsHeading, hitsList, hitsMore]);
    var agentsHeading = el("h3", { id: ids + "-agents-title", class: "a2a-results__title" });
    var agentsList = el("ul", { class: "a2a-agents" });
    var agentsMore = el("button", { type: "button", class: "a2a-more", hidden: true });
    var agentsBox = el("section", { class: "a2a-agents-box", "aria-labelledby": agentsHeading.id, hidden: true },
      [agentsHeading, agentsList, agentsMore]);
    var results = el("div", { class: "a2a-results" }, [hitsBox, agentsBox]);

    heading.parentNode.insertBefore(form, heading.nextSibling);
    form.parentNode.insertBefore(results, form.nextSibling);

    var catalogue = null; // the whole catalogue, once catalogue-filter.json is loaded
    var shown = [];
    var shownCount = 0;
    var searchText = "";
    var hitCount = null;
    var searchPending = false; // a text search of the agent pages has been asked and has not answered
    var agentSummary = "";
    var timer = 0;
    var searchRun = 0;
    var pagefindResults = [];
    var pagefindShown = 0;

    function state() {
      var s = { q: query.value.trim() };
      FACETS.forEach(function (f) { s[f[0]] = selects[f[0]].value; });
      return s;
    }

    /* One answer, in the status line: the agents whose name, description, tags or skills match, and the agent
       pages whose text holds the words (Pagefind), said together; "No agent matches" only when neither has
       any, and not before the pages have answered. */
    function announce() {
      var s = state();
      var filtering = catalogue && !isEmpty(s);
      if (!s.q || hitCount === null) {
        status.textContent = searchPending ? agentSummary + "; searching the agent pages…" : agentSummary;
        if (filtering) {
          agentsBox.hidden = searchPending && shown.length === 0;
          agentsHeading.textContent = shown.length ? "Agents" : "No agent matches";
        }
        return;
      }
      var words = "“" + searchText + "”";
      var pages = hitCount ? plural(hitCount, "agent page holds", "agent pages hold") + " " + words : "";
      if (!catalogue) status.textContent = agentSummary + (pages ? "; " + pages : "");
      else if (shown.length && pages) status.textContent = agentSummary + " match " + words + "; " + pages;
      else if (shown.length) status.textContent = agentSummary + " match " + words;
      else if (pages) status.textContent = pages + ", in the skills below";
      else status.textContent = "No agent matches " + words;
      if (filtering) {
        agentsBox.hidden = shown.length === 0 && hitCount > 0;
        agentsHeading.textContent = shown.length ? "Agents" : "No agent matches";
      }
    }

    function showStatic(visible) {
      staticNodes.forEach(function (n) { n.hidden = !visible; });
    }

    // Facet lists with counts that follow the other choices.
    function fillSelects(s, queryWords) {
      FACETS.forEach(function (f) {
        var key = f[0];
        var counts = {};
        catalogue.agents.forEach(function (agent) {
          if (!matches(agent, queryWords, s, key)) return;
          agent.values[key].forEach(function (v) { counts[v] = (counts[v] || 0) + 1; });
        });
        var select = selects[key];
        var options = [el("option", { value: "", text: f[2] })];
        catalogue.values[key].forEach(function (v) {
          var n = counts[v] || 0;
          if (!n && v !== s[key]) return;
          options.push(el("option", { value: v, text: v + " (" + numbers.format(n) + ")" }));
        });
        if (s[key] && catalogue.values[key].indexOf(s[key]) < 0) {
          options.push(el("option", { value: s[key], text: s[key] + " (0)" }));
        }
        select.replaceChildren.apply(select, options);
        select.value = s[key];
        select.parentNode.hidden = !catalogue.values[key].length && !s[key];
      });
    }

    function renderAgents(from) {
      var end = Math.min(shown.length, from + PAGE_SIZE);
      var fragment = document.createDocumentFragment();
      for (var i = from; i < end; i++) fragment.appendChild(agentItem(shown[i]));
      agentsList.appendChild(fragment);
      shownCount = end;
      var left = shown.length - end;
      agentsMore.hidden = left <= 0;
      agentsMore.textContent = "Show " + numbers.format(Math.min(PAGE_SIZE, left)) + " more (" + numbers.format(left) + " not shown)";
      return from < end ? agentsList.children[from] : null;
    }

    function filterCatalogue(s) {
      var queryWords = words(s.q);
      fillSelects(s, queryWords);
      var active = FACETS.filter(function (f) { return s[f[0]]; }).length;
      facetSummary.textContent = active ? "Filters (" + active + " chosen)" : "Filters";
      if (isEmpty(s)) {
        shown = [];
        agentsBox.hidden = true;
        showStatic(true);
        agentSummary = plural(catalogue.agents.length, "agent", "agents");
        return;
      }
      shown = catalogue.agents.filter(function (agent) { return matches(agent, queryWords, s, null); });
      agentsList.replaceChildren();
      renderAgents(0);
      showStatic(false);
      agentsBox.hidden = false;
      agentsHeading.textContent = shown.length ? "Agents" : "No agent matches";
      agentSummary = numbers.format(shown.length) + " of " + plural(catalogue.agents.length, "agent", "agents");
    }

    function filterPage(s) {
      var queryWords = words(s.q);
      var n = 0;
      staticItems.forEach(function (li) {
        var text = li.textContent.toLowerCase();
        var ok = queryWords.every(function (w) { return text.indexOf(w) >= 0; });
        li.hidden = !ok;
        n += ok ? 1 : 0;
      });
      // A provider's heading goes with its agents.
      var group = null;
      staticNodes.forEach(function (node) {
        if (/^H[3-6]$/.test(node.tagName)) group = node;
        else if (group && (node.tagName === "UL" || node.tagName === "OL")) {
          group.hidden = !Array.prototype.some.call(node.children, function (li) { return !li.hidden; });
        }
      });
      agentSummary = queryWords.length
        ? numbers.format(n) + " of " + plural(staticItems.length, "agent", "agents") + " on this page"
        : plural(staticItems.length, "agent", "agents") + " on this page";
    }

    function search(s) {
      var run = ++searchRun;
      clearTimeout(timer);
      if (!s.q) {
        hitCount = null;
        searchPending = false;
        hitsBox.hidden = true;
        hitsList.replaceChildren();
        return;
      }
      hitCount = null; // until this search answers, the status says nothing about an older one
      searchPending = hasSearchIndex && location.protocol !== "file:";
      timer = setTimeout(function () {
        loadPagefind().then(function (module) {
          if (run !== searchRun) return null;
          if (!module) {
            hitCount = null;
            searchPending = false;
            hitsBox.hidden = true;
            announce();
            return null;
          }
          hitsBox.setAttribute("aria-busy", "true");
          return module.search(s.q, { filters: pagefindFilters(s) }).then(function (found) {
            if (run !== searchRun || !found) return null;
            pagefindResults = found.results || [];
            pagefindShown = 0;
            searchText = s.q;
            hitCount = pagefindResults.length;
            searchPending = false;
            hitsHeading.textContent = "Skills whose agent page holds “" + s.q + "”";
            hitsBox.hidden = !hitCount;
            announce();
            return showHits(run, true);
          });
        }).catch(function () {
          hitCount = null;
          searchPending = false;
          hitsBox.hidden = true;
          hitsBox.setAttribute("aria-busy", "false");
          announce();
        });
      }, DEBOUNCE_MS);
      // While the reader types, fetch the index chunk of the word so far (from three letters: shorter
      // prefixes span many chunks).
      if (s.q.replace(/\s/g, "").length >= 3) {
        loadPagefind().then(function (module) {
          if (module && module.preload && run === searchRun) module.preload(s.q, { filters: pagefindFilters(s) });
        });
      }
    }

    /* Whether the chosen facets keep the agent page at `url` (a Pagefind result's). The plugin's index
       filters by facet itself; an engine's index has no facets, so its results are narrowed here by the
       catalogue's own values for the page's agent. */
    function facetsAllow(url) {
      var s = state();
      if (indexHasFacets || !catalogue || !FACETS.some(function (f) { return s[f[0]]; })) return true;
      var href = new URL(url, location.href).href;
      return catalogue.agents.some(function (agent) {
        return ROOT + agent.url === href && matches(agent, [], s, null);
      });
    }

    /* The next pages of results, each shown as soon as it and those before it have loaded. */
    function showHits(run, replace) {
      var batch = pagefindResults.slice(pagefindShown, pagefindShown + HIT_PAGES);
      pagefindShown += batch.length;
      var loads = batch.map(function (r) { return r.data(); });
      var first = null;
      function add(data) {
        if (run !== searchRun) return;
        if (replace) {
          hitsList.replaceChildren();
          replace = false;
        }
        if (!facetsAllow(data.url)) return;
        hitsOf(data).slice(0, HITS_PER_AGENT).forEach(function (hit) {
          var item = hitItem(hit);
          if (!first) first = item;
          hitsList.appendChild(item);
        });
      }
      return loads.reduce(function (previous, load) {
        return previous.then(function () { return load; }).then(add);
      }, Promise.resolve()).then(function () {
        if (run !== searchRun) return null;
        if (replace) hitsList.replaceChildren();
        hitsBox.setAttribute("aria-busy", "false");
        hitsMore.hidden = pagefindShown >= pagefindResults.length;
        hitsMore.textContent = "More results (" + numbers.format(pagefindResults.length - pagefindShown) + " agent pages not shown)";
        return first;
      });
    }

    function apply(fromUser) {
      var s = state();
      if (fromUser) writeHash(s);
      if (catalogue) filterCatalogue(s);
      else filterPage(s);
      search(s);
      announce();
    }

    function restore(s) {
      query.value = s.q;
      FACETS.forEach(function (f) {
        var select = selects[f[0]];
        if (s[f[0]] && !Array.prototype.some.call(select.options, function (o) { return o.value === s[f[0]]; })) {
          select.appendChild(el("option", { value: s[f[0]], text: s[f[0]] }));
        }
        select.value = s[f[0]];
      });
    }

    function openFacets(open) {
      facetSummary.setAttribute("aria-expanded", open ? "true" : "false");
      facetBox.hidden = !open;
    }

    facetSummary.addEventListener("click", function () {
      openFacets(facetSummary.getAttribute("aria-expanded") !== "true");
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("input", function () { apply(true); });
    form.addEventListener("reset", function () {
      setTimeout(function () { apply(true); query.focus(); }, 0);
    });
    // Pagefind starts loading when the page is idle (see the end of setUp), or sooner at the first sign of a
    // search: a pointer over the form, the box focused.
    form.addEventListener("pointerover", function () { loadPagefind(); }, { once: true });
    query.addEventListener("focus", function () { loadPagefind(); }, { once: true });
    agentsMore.addEventListener("click", function () {
      var first = renderAgents(shownCount);
      if (first) first.querySelector("a").focus();
    });
    hitsMore.addEventListener("click", function () {
      showHits(searchRun, false).then(function (first) { if (first) first.querySelector("a").focus(); });
    });
    onHashChange = function () {
      var s = readHash();
      if (s && form.isConnected) { restore(s); apply(false); }
    };

    var initial = readHash();
    if (initial) restore(initial);
    status.textContent = "Loading the catalogue…";
    loadCatalogue().then(function (loaded) {
      catalogue = loaded;
      if (loaded.search) hasSearchIndex = true;
      facetDetails.hidden = false;
      // Open on wide screens; on a phone the six lists would push the results off the screen.
      openFacets(window.matchMedia("(min-width: 45em)").matches || FACETS.some(function (f) {
        return initial && initial[f[0]];
      }));
      if (initial) restore(initial);
    }).catch(function () {
      if (location.protocol === "file:") {
        note.hidden = false;
        note.replaceChildren(
          "Opened from a file, this page filters only its own agents, and the full-text search is off. Serve the site to use both, for example: ",
          el("code", { text: SERVE_HINT })
        );
      }
    }).then(function () {
      apply(false);
      // Pagefind's first search spends most of its time starting (its worker, its WebAssembly, the index's
      // metadata, about 160 KB): start it once the page is idle, so that the first query answers quickly.
      if (location.protocol !== "file:") {
        (window.requestIdleCallback || function (f) { return setTimeout(f, 1000); })(function () { loadPagefind(); });
      }
    });
  }

  // -- copy buttons outside mkdocs-material (whose own clipboard handles data-clipboard-text) ----------

  function setUpCopyButtons() {
    if (window.document$ || !navigator.clipboard) return;
    document.querySelectorAll(".a2a-page .a2a-copy[data-clipboard-text]").forEach(function (button) {
      if (button.dataset.a2aCopy) return;
      button.dataset.a2aCopy = "1";
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.getAttribute("data-clipboard-text")).then(function () {
          button.classList.add("a2a-copy--done");
          setTimeout(function () { button.classList.remove("a2a-copy--done"); }, 1500);
        });
      });
    });
  }

  // The "Agents" heading of a catalogue home page without the plugin's wrapper: only on the page at the
  // catalogue's root (or one of its further pages, index-2/ ...), so a site's own "Agents" heading elsewhere
  // is left alone.
  function homeHeading() {
    var here = new URL(".", location.href).href;
    var rest = here.indexOf(ROOT) === 0 ? here.slice(ROOT.length) : null;
    if (rest === null || !/^(?:index-[0-9]+\/)?$/.test(rest)) return null;
    var heading = document.getElementById("agents");
    return heading && heading.tagName === "H2" ? heading : null;
  }

  // An agent page built by an engine from a2a-docgen build output has no plugin wrapper: its content region
  // (Zensical's and Material's article) gets the wrapper's classes, so the catalogue's styles (long tokens
  // that wrap, wide tables that scroll in their own box on a phone) reach it as they reach the plugin's.
  function markAgentPage() {
    if (document.querySelector(".a2a-page")) return;
    var here = new URL(".", location.href).href;
    var rest = here.indexOf(ROOT) === 0 ? here.slice(ROOT.length) : null;
    if (rest === null || !/^agents\/[a-z0-9-]+\/$/.test(rest)) return;
    var content = document.querySelector("article.md-content__inner");
    if (content) content.classList.add("a2a-page", "a2a-page-agent");
  }

  // A row of request tabs wider than the page scrolls sideways (the theme's tab bar): a scrolling region must
  // take the keyboard's focus, so a reader without a pointer can scroll it too (WCAG 2.1.1).
  function focusableTabBars() {
    document.querySelectorAll(".a2a-page .tabbed-labels").forEach(function (bar) {
      if (!bar.hasAttribute("tabindex")) bar.setAttribute("tabindex", "0");
    });
  }

  function init() {
    onHashChange = null;
    markAgentPage();
    focusableTabBars();
    var heading = document.querySelector(".a2a-page #agents") || homeHeading();
    if (heading) setUp(heading);
    setUpCopyButtons();
  }

  // mkdocs-material's instant navigation swaps pages without reloading scripts: it announces each page.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
