// Draws the charts a flushlab page carries (their options are built by the lab, in Java) with
// ECharts, inlined above. It records what it drew, and any error, on <body> as data attributes,
// so a headless browser can tell a drawn page from a broken one.
(function () {
  'use strict';
  var errors = [];
  function fail(message) {
    errors.push(String(message));
    document.body.setAttribute('data-errors', errors.join(' | '));
  }
  window.addEventListener('error', function (e) { fail(e.message); });
  var consoleError = console.error;
  console.error = function () {
    fail(Array.prototype.join.call(arguments, ' '));
    consoleError.apply(console, arguments);
  };

  // 1/(1-p) on a log axis, labelled as the percentile it stands for
  function percentileLabel(x) {
    if (x <= 1) return '0%';
    var p = 100 * (1 - 1 / x);
    if (p >= 99.99999) return '100%';
    var digits = Math.max(0, Math.ceil(-Math.log10(100 - p)) + 1);
    var text = p.toFixed(Math.min(digits, 5));
    if (text.indexOf('.') >= 0) text = text.replace(/0+$/, '').replace(/\.$/, '');
    return text + '%';
  }

  var specs = JSON.parse(document.getElementById('flushlab-charts').textContent);
  var drawn = [];
  specs.forEach(function (spec) {
    var el = document.getElementById(spec.id);
    if (!el) { fail('no element for ' + spec.id); return; }
    try {
      var option = spec.option;
      if (spec.percentile_axis) {
        option.xAxis.axisLabel = { formatter: percentileLabel };
        option.tooltip = { trigger: 'item', formatter: function (p) {
          return p.seriesName + '<br>' + percentileLabel(p.value[0]) + ': ' + p.value[1] + ' ms';
        } };
      }
      var chart = echarts.init(el, null, { renderer: 'canvas' });
      chart.setOption(option);
      drawn.push(chart);
    } catch (e) {
      fail(spec.id + ': ' + e.message);
    }
  });
  window.addEventListener('resize', function () { drawn.forEach(function (c) { c.resize(); }); });
  // Printing: open the folded sections, so the attachment carries them.
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.setAttribute('open', ''); });
    drawn.forEach(function (c) { c.resize(); });
  });
  var rects = specs.map(function (spec) {
    var r = document.getElementById(spec.id).getBoundingClientRect();
    return [spec.id, Math.round(r.left + window.scrollX), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
  });
  document.body.setAttribute('data-charts-drawn', String(drawn.length));
  document.body.setAttribute('data-chart-rects', JSON.stringify(rects));
  document.body.setAttribute('data-ready', 'true');
})();
