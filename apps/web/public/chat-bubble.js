/*
 * CourseLens chat bubble: puts a custom AI agent on any course page.
 *
 *   <script src="https://HOST/chat-bubble.js" data-chatbot="AGENT_ID"
 *           data-email="LEARNER_EMAIL" async></script>
 *
 * Optional: data-name (the learner's name), data-color (the button's colour,
 * #rrggbb), data-theme (light | dark, to match the course page).
 *
 * A round button in the bottom right opens the agent's chat page in a frame
 * (380 × 600, the whole screen on narrow ones). Everything runs inside one
 * function, so the page gets no globals; styles are set through element.style,
 * which a Content-Security-Policy without 'unsafe-inline' still allows (a
 * <style> element or style="" markup would be refused).
 */
(function () {
  'use strict';

  var CLOSE_MESSAGE = 'courselens-chat:close';
  var NARROW_QUERY = '(max-width: 479.98px)';
  var DEFAULT_COLOR = '#4f46e5';
  var SVG_NS = 'http://www.w3.org/2000/svg';

  // currentScript is null once the script has run (and in a few old loaders):
  // fall back to the tag that points at this file.
  var script =
    document.currentScript || document.querySelector('script[data-chatbot][src*="chat-bubble.js"]');
  if (!script || !script.getAttribute('data-chatbot')) return;

  var chatbotId = script.getAttribute('data-chatbot').trim();
  var origin;
  try {
    origin = new URL(script.src, window.location.href).origin;
  } catch {
    return;
  }
  if (!chatbotId) return;

  var rootId = 'courselens-chat-' + chatbotId.replace(/[^A-Za-z0-9_-]/g, '');
  // The tag included twice (a template and a plug-in both add it) still makes one bubble.
  if (document.getElementById(rootId)) return;

  function attribute(name) {
    var value = script.getAttribute(name);
    return value ? value.trim() : '';
  }

  var color = /^#[0-9a-fA-F]{6}$/.test(attribute('data-color')) ? attribute('data-color') : DEFAULT_COLOR;
  // What shows while the chat loads: the page's own background, so a dark chat does not flash white.
  var loadingBackground = attribute('data-theme') === 'dark' ? '#0b1020' : '#ffffff';

  function chatUrl() {
    var params = new URLSearchParams();
    var email = attribute('data-email');
    // An unfilled template placeholder is no address: the page then asks the learner.
    if (email.indexOf('@') > 0) params.set('email', email);
    var name = attribute('data-name');
    if (name) params.set('name', name);
    var theme = attribute('data-theme');
    if (theme === 'light' || theme === 'dark') params.set('theme', theme);
    params.set('embed', '1');
    return origin + '/chat/' + encodeURIComponent(chatbotId) + '?' + params.toString();
  }

  function setStyles(element, styles) {
    for (var key in styles) {
      if (Object.prototype.hasOwnProperty.call(styles, key)) element.style[key] = styles[key];
    }
  }

  function icon(paths) {
    var svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('width', '26');
    svg.setAttribute('height', '26');
    svg.setAttribute('fill', 'none');
    svg.setAttribute('stroke', 'currentColor');
    svg.setAttribute('stroke-width', '2');
    svg.setAttribute('stroke-linecap', 'round');
    svg.setAttribute('stroke-linejoin', 'round');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    paths.forEach(function (d) {
      var path = document.createElementNS(SVG_NS, 'path');
      path.setAttribute('d', d);
      svg.appendChild(path);
    });
    return svg;
  }

  var chatIcon = icon(['M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z']);
  var closeIcon = icon(['M18 6 6 18', 'M6 6l12 12']);

  function mount() {
    var narrow = window.matchMedia ? window.matchMedia(NARROW_QUERY) : null;
    var isOpen = false;
    var frame = null;

    var root = document.createElement('div');
    root.id = rootId;

    var button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('aria-label', 'Open chat');
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-controls', rootId + '-panel');
    button.appendChild(chatIcon);
    setStyles(button, {
      position: 'fixed',
      right: '24px',
      bottom: '24px',
      width: '56px',
      height: '56px',
      padding: '0',
      margin: '0',
      border: '0',
      borderRadius: '50%',
      background: color,
      color: '#ffffff',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      cursor: 'pointer',
      boxShadow: '0 6px 20px rgba(15, 23, 42, 0.25)',
      zIndex: '2147483000',
    });

    var panel = document.createElement('div');
    panel.id = rootId + '-panel';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', 'Chat');
    setStyles(panel, {
      position: 'fixed',
      display: 'none',
      flexDirection: 'column',
      overflow: 'hidden',
      background: loadingBackground,
      boxShadow: '0 12px 40px rgba(15, 23, 42, 0.3)',
      zIndex: '2147483001',
    });

    // On a phone the panel covers the button, so it carries its own way out.
    var bar = document.createElement('div');
    setStyles(bar, {
      display: 'none',
      alignItems: 'center',
      justifyContent: 'flex-end',
      height: '44px',
      padding: '0 4px',
      background: color,
      flex: '0 0 auto',
    });
    var barClose = document.createElement('button');
    barClose.type = 'button';
    barClose.setAttribute('aria-label', 'Close chat');
    barClose.appendChild(icon(['M18 6 6 18', 'M6 6l12 12']));
    setStyles(barClose, {
      width: '44px',
      height: '44px',
      padding: '0',
      border: '0',
      background: 'transparent',
      color: '#ffffff',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      cursor: 'pointer',
    });
    bar.appendChild(barClose);
    panel.appendChild(bar);

    function layout() {
      var isNarrow = Boolean(narrow && narrow.matches);
      if (isNarrow) {
        setStyles(panel, {
          top: '0',
          left: '0',
          right: '0',
          bottom: '0',
          width: '100%',
          height: '100%',
          maxHeight: 'none',
          borderRadius: '0',
        });
      } else {
        setStyles(panel, {
          top: 'auto',
          left: 'auto',
          right: '24px',
          bottom: '96px',
          width: '380px',
          height: '600px',
          maxWidth: 'calc(100vw - 48px)',
          maxHeight: 'calc(100vh - 120px)',
          borderRadius: '16px',
        });
      }
      bar.style.display = isNarrow ? 'flex' : 'none';
      button.style.display = isNarrow && isOpen ? 'none' : 'flex';
    }

    function ensureFrame() {
      if (frame) return;
      // Made on first open, so a course page that never opens the chat never loads it.
      frame = document.createElement('iframe');
      frame.src = chatUrl();
      frame.title = 'Chat with the course assistant';
      frame.setAttribute('allow', 'clipboard-write');
      setStyles(frame, { border: '0', width: '100%', height: '100%', flex: '1 1 auto', display: 'block' });
      panel.appendChild(frame);
    }

    function open() {
      if (isOpen) return;
      ensureFrame();
      isOpen = true;
      panel.style.display = 'flex';
      button.setAttribute('aria-expanded', 'true');
      button.setAttribute('aria-label', 'Close chat');
      button.replaceChild(closeIcon, chatIcon);
      layout();
      frame.focus();
    }

    function close() {
      if (!isOpen) return;
      isOpen = false;
      panel.style.display = 'none';
      button.setAttribute('aria-expanded', 'false');
      button.setAttribute('aria-label', 'Open chat');
      button.replaceChild(chatIcon, closeIcon);
      layout();
      button.focus();
    }

    button.addEventListener('click', function () {
      if (isOpen) close();
      else open();
    });
    barClose.addEventListener('click', close);
    document.addEventListener('keydown', function (event) {
      if (isOpen && (event.key === 'Escape' || event.key === 'Esc')) close();
    });
    // Escape pressed inside the frame never reaches this page: the chat page posts it here.
    window.addEventListener('message', function (event) {
      if (!frame || event.origin !== origin || event.source !== frame.contentWindow) return;
      if (event.data && event.data.type === CLOSE_MESSAGE) close();
    });
    if (narrow) {
      if (narrow.addEventListener) narrow.addEventListener('change', layout);
      else if (narrow.addListener) narrow.addListener(layout);
    }

    layout();
    root.appendChild(panel);
    root.appendChild(button);
    document.body.appendChild(root);
  }

  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
