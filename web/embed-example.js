// Host-page side of embedding: size each llmsim iframe to the height it reports.
window.addEventListener('message', function (e) {
  if (!e.data || e.data.llmsim !== 'height' || typeof e.data.height !== 'number') return;
  document.querySelectorAll('iframe').forEach(function (f) {
    if (f.contentWindow === e.source) f.style.height = Math.min(Math.max(e.data.height, 120), 4000) + 'px';
  });
});
