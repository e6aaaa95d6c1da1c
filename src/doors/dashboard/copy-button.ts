/**
 * The copy button beside a new key: a script file of its own (the dashboard's CSP allows no inline
 * script), sent only with the page that shows a key. Without clipboard access (an insecure
 * origin, a refusal) it selects the key for Ctrl+C instead.
 */
export const COPY_SCRIPT_PATH = '/dashboard/assets/copy.js';

export const COPY_SCRIPT = `document.addEventListener('click', function (e) {
  var button = e.target.closest && e.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent || '';
  var done = function (label) { button.textContent = label; setTimeout(function () { button.textContent = 'Copy'; }, 2500); };
  var select = function () {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    done('Press Ctrl+C');
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { done('Copied'); }, select);
  else select();
});
`;
