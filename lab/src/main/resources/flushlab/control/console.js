// The console page: panels for the direct path and each relay, fed by the console's events (the
// lab's metered client measures; this page only shows). Chains are changed through the same
// control API Toxiproxy's clients use. It records what it showed on data attributes, for tests.
(function () {
  'use strict';
  var PRESETS = [
    ['passthrough', []],
    ['drain-and-flush', [{ type: 'drain-and-flush' }]],
    ['cork (HAProxy default)', [{ type: 'cork' }]],
    ['byte threshold 1 KiB', [{ type: 'byte-threshold', attributes: { bytes: '1KiB' } }]],
    ['timer 200 ms', [{ type: 'timer', attributes: { after: '200ms' } }]],
    ['nagle', [{ type: 'nagle' }]],
    ['latency 100 ms', [{ type: 'latency', attributes: { latency: 100 } }]]
  ];
  var panels = {};
  var errors = [];
  function fail(m) { errors.push(String(m)); document.body.setAttribute('data-errors', errors.join(' | ')); }
  window.addEventListener('error', function (e) { fail(e.message); });
  var status = document.getElementById('status');

  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text) e.textContent = text; return e; }

  function describe(toxics) {
    if (!toxics || toxics.length === 0) return 'passthrough';
    return toxics.map(function (t) { return t.type; }).join(' -> ');
  }

  function panel(name, proxy) {
    var p = el('div', 'panel');
    p.setAttribute('data-target', name);
    p.appendChild(el('h2', null, name));
    var chain = el('div', 'chain', proxy ? 'chain: ' + describe(proxy.toxics) : 'the emitter, directly');
    p.appendChild(chain);
    if (proxy) {
      var sel = el('select');
      PRESETS.forEach(function (pr, i) { var o = el('option', null, pr[0]); o.value = i; sel.appendChild(o); });
      sel.value = '';
      var label = el('label', 'chain', 'set chain: ');
      label.appendChild(sel);
      p.appendChild(label);
      sel.addEventListener('change', function () { setChain(name, PRESETS[sel.value][1], chain); });
    }
    var c = el('div', 'counters');
    var fields = {};
    [['fpr', 'frames per read'], ['head', 'head ms'], ['ttft', 'first token ms'], ['gap', 'gap p50 / p99 ms'], ['e2r', 'emit→recv p50 ms'],
     ['frames', 'tokens'], ['reads', 'reads']].forEach(function (f) {
      var d = el('div', null, f[1]); var b = el('b', null, '–'); d.insertBefore(b, d.firstChild); c.appendChild(d); fields[f[0]] = b;
    });
    p.appendChild(c);
    var text = el('div', 'text');
    p.appendChild(text);
    var chartEl = el('div', 'chart');
    p.appendChild(chartEl);
    document.getElementById('panels').appendChild(p);
    var chart = echarts.init(chartEl, null, { renderer: 'canvas' });
    chart.setOption({ animation: false, grid: { left: 48, right: 12, top: 12, bottom: 36 },
      xAxis: { type: 'value', name: 'ms', nameLocation: 'middle', nameGap: 22, min: 0 },
      yAxis: { type: 'value', name: 'tokens', min: 0 },
      series: [{ type: 'line', step: 'end', showSymbol: false, data: [] }] });
    panels[name] = { el: p, fields: fields, text: text, chart: chart, points: [], frames: 0, reads: 0, words: [],
      chainEl: proxy ? chain : null };
  }

  function setChain(name, toxics, chainEl) {
    var base = '/proxies/' + encodeURIComponent(name) + '/toxics';
    fetch(base).then(function (r) { return r.json(); }).then(function (list) {
      return Promise.all(list.map(function (t) { return fetch(base + '/' + encodeURIComponent(t.name), { method: 'DELETE' }); }));
    }).then(function () {
      return toxics.reduce(function (p, t) {
        return p.then(function () { return fetch(base, { method: 'POST', body: JSON.stringify(t) }); });
      }, Promise.resolve());
    }).then(function () {
      chainEl.textContent = 'chain: ' + describe(toxics) + ' (from the next stream)';
    }).catch(fail);
  }

  // The API is the page's model too: at each run, show every relay's chain as the API has it now
  // (a Toxiproxy client may have changed it since the page loaded).
  function refreshChains() {
    fetch('/proxies').then(function (r) { return r.json(); }).then(function (proxies) {
      Object.keys(proxies).forEach(function (n) {
        var p = panels[n];
        if (p && p.chainEl) p.chainEl.textContent = 'chain: ' + describe(proxies[n].toxics);
      });
    }).catch(fail);
  }

  function reset(run) {
    refreshChains();
    Object.keys(panels).forEach(function (k) {
      var p = panels[k];
      p.points = [[0, 0]]; p.frames = 0; p.reads = 0; p.words = run.words; p.text.textContent = '';
      Object.keys(p.fields).forEach(function (f) { p.fields[f].textContent = '–'; });
      p.chart.setOption({ xAxis: { max: Math.max(100, run.tokens * run.delay_ms * 1.3) }, yAxis: { max: run.tokens },
        series: [{ data: p.points }] });
      p.el.removeAttribute('data-fpr'); p.el.setAttribute('data-frames', '0');
    });
  }

  function onRead(e) {
    var p = panels[e.target]; if (!p) return;
    var from = p.frames;
    p.frames = e.frames; p.reads += 1;
    p.text.textContent += p.words.slice(from, e.frames).join(' ') + ' ';
    p.text.scrollTop = p.text.scrollHeight;
    p.points.push([e.t_ms, e.frames]);
    p.chart.setOption({ series: [{ data: p.points }] });
    p.fields.frames.textContent = String(p.frames);
    p.fields.reads.textContent = String(p.reads);
    p.fields.fpr.textContent = (p.frames / p.reads).toFixed(2);
    p.el.setAttribute('data-frames', String(p.frames));
  }

  function onDone(e) {
    var p = panels[e.target]; if (!p) return;
    if (e.error) { p.fields.fpr.textContent = 'error'; p.el.setAttribute('data-error', e.error); return; }
    p.fields.fpr.textContent = e.frames_per_read.toFixed(2);
    p.fields.head.textContent = e.head_ms.toFixed(1);
    p.fields.ttft.textContent = e.ttft_ms.toFixed(1);
    p.fields.gap.textContent = e.gap_p50_ms.toFixed(1) + ' / ' + e.gap_p99_ms.toFixed(1);
    p.fields.e2r.textContent = e.emit_to_recv_p50_ms.toFixed(2);
    p.el.setAttribute('data-fpr', String(e.frames_per_read));
    p.el.setAttribute('data-ttft', String(e.ttft_ms));
    var done = Number(document.body.getAttribute('data-runs-done')) + 1;
    document.body.setAttribute('data-runs-done', String(done));
  }

  function start() {
    var body = { tokens: Number(document.getElementById('tokens').value), delay_ms: Number(document.getElementById('delay').value) };
    fetch('/console/streams', { method: 'POST', body: JSON.stringify(body) }).then(function (r) {
      if (r.status !== 202) return r.json().then(function (j) { status.textContent = j.error; });
      status.textContent = '';
    }).catch(fail);
  }
  // this console's own host stalls over the last 10 s: a stall here merges frames as a proxy would
  function onHiccups(e) {
    var figure = e.over_5_ms === 0 ? 'none over 5 ms'
      : e.over_5_ms + ' over 5 ms, ' + e.over_20_ms + ' over 20 ms, longest ' + e.max_ms.toFixed(1) + ' ms';
    document.getElementById('stalls-figure').textContent = figure;
    document.getElementById('stalls').className = e.over_20_ms > 0 ? 'stalls bad' : 'stalls';
    document.body.setAttribute('data-host-stalls', figure);
  }

  document.getElementById('start').addEventListener('click', start);

  var query = new URLSearchParams(location.search);
  if (query.get('tokens')) document.getElementById('tokens').value = query.get('tokens');
  if (query.get('delay')) document.getElementById('delay').value = query.get('delay');

  fetch('/proxies').then(function (r) { return r.json(); }).then(function (proxies) {
    panel('direct', null);
    Object.keys(proxies).forEach(function (n) { if (proxies[n].enabled) panel(n, proxies[n]); });
    // each chart was sized when its panel arrived; the grid has reflowed since
    Object.keys(panels).forEach(function (k) { panels[k].chart.resize(); });
    var events = new EventSource('/console/events');
    events.onmessage = function (m) {
      var e = JSON.parse(m.data);
      if (e.type === 'start') reset(e); else if (e.type === 'read') onRead(e); else if (e.type === 'done') onDone(e);
      else if (e.type === 'hiccups') onHiccups(e);
    };
    events.onopen = function () {
      document.body.setAttribute('data-ready', 'true');
      if (query.get('autostart') === '1') start();
    };
  }).catch(fail);
  window.addEventListener('resize', function () { Object.keys(panels).forEach(function (k) { panels[k].chart.resize(); }); });
})();
