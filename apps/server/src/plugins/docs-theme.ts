/**
 * Swagger UI's stock palette fails WCAG AA (white on #49cc90 method badges,
 * grey links and version stamps) and has no dark mode, so /docs/ carries this
 * stylesheet: AA-contrast method colours, the product's slate palette, and a
 * dark theme that follows the operating system like the web app does.
 */
export const DOCS_THEME_CSS = `
:root { color-scheme: light dark; }
body { margin: 0; background: #ffffff; }
.swagger-ui { font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; }
.swagger-ui .wrapper { max-width: 1120px; padding: 0 16px; }
.swagger-ui .info { margin: 32px 0; }
.swagger-ui .info a, .swagger-ui .markdown a { color: #1d4ed8; }
.swagger-ui .info .title small { background: #334155; }
.swagger-ui .info .title small.version-stamp { background: #3f6212; }
.swagger-ui .info .title small pre, .swagger-ui .info .title small.version-stamp pre { color: #ffffff; }
.swagger-ui .info .url, .swagger-ui .info .base-url { color: #334155; }
.swagger-ui .btn.authorize { color: #166534; border-color: #166534; }
.swagger-ui .btn.authorize span { color: #166534; }
.swagger-ui .btn.authorize svg { fill: #166534; }
.swagger-ui .opblock .opblock-summary-method { color: #ffffff; text-shadow: none; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d4ed8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #15803d; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #b45309; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f766e; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #6d28d9; }
.swagger-ui .opblock .opblock-summary-description { color: #1e293b; }
.swagger-ui .opblock .opblock-summary-path, .swagger-ui .opblock .opblock-summary-path__deprecated { color: #0f172a; }
.swagger-ui .opblock-tag small { color: #334155; }
.swagger-ui .parameter__in, .swagger-ui .parameter__type, .swagger-ui .prop-format { color: #475569; }
.swagger-ui .parameter__name.required span, .swagger-ui .parameter__name.required:after { color: #b91c1c; }
.swagger-ui .response-col_links { color: #475569; }
.swagger-ui .tab li { color: #0f172a; }
.swagger-ui .model-hint, .swagger-ui .model .property.primitive { color: #475569; }
.swagger-ui :focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }

@media (prefers-color-scheme: dark) {
  body { background: #020617; }
  .swagger-ui, .swagger-ui .info .title, .swagger-ui .info p, .swagger-ui .info li,
  .swagger-ui .info h1, .swagger-ui .info h2, .swagger-ui .info h3, .swagger-ui .info h4,
  .swagger-ui .markdown p, .swagger-ui .markdown li, .swagger-ui .renderedMarkdown p,
  .swagger-ui .opblock-tag, .swagger-ui .opblock .opblock-summary-path,
  .swagger-ui .opblock .opblock-summary-path__deprecated,
  .swagger-ui .opblock .opblock-summary-operation-id,
  .swagger-ui .opblock .opblock-section-header h4, .swagger-ui .opblock .opblock-section-header > label,
  .swagger-ui .opblock-description-wrapper p, .swagger-ui .opblock-external-docs-wrapper p,
  .swagger-ui .opblock-title_normal p, .swagger-ui table thead tr td, .swagger-ui table thead tr th,
  .swagger-ui .parameter__name, .swagger-ui .response-col_status, .swagger-ui .response-col_description,
  .swagger-ui .responses-inner h4, .swagger-ui .responses-inner h5, .swagger-ui .tab li,
  .swagger-ui section.models h4, .swagger-ui section.models h5, .swagger-ui .model-title,
  .swagger-ui .model, .swagger-ui .prop-type, .swagger-ui label, .swagger-ui .scheme-container .schemes > label,
  .swagger-ui .dialog-ux .modal-ux-header h3, .swagger-ui .dialog-ux .modal-ux-content p,
  .swagger-ui .dialog-ux .modal-ux-content h4, .swagger-ui .servers-title, .swagger-ui .opblock-tag small,
  .swagger-ui .opblock .opblock-summary-description, .swagger-ui .loading-container .loading:after,
  .swagger-ui .info table th, .swagger-ui .info table td, .swagger-ui .markdown table th,
  .swagger-ui .markdown table td {
    color: #e2e8f0;
  }
  .swagger-ui .info table th, .swagger-ui .info table td, .swagger-ui .markdown table th,
  .swagger-ui .markdown table td { border-color: #334155; }
  .swagger-ui .info a, .swagger-ui .markdown a, .swagger-ui a.nostyle, .swagger-ui .info .url { color: #93c5fd; }
  .swagger-ui .info .base-url, .swagger-ui .parameter__in, .swagger-ui .parameter__type,
  .swagger-ui .prop-format, .swagger-ui .response-col_links, .swagger-ui .model-hint,
  .swagger-ui .model .property.primitive, .swagger-ui .parameter__extension,
  .swagger-ui .parameter__deprecated { color: #cbd5e1; }
  .swagger-ui .info .title small { background: #475569; }
  .swagger-ui .info .title small.version-stamp { background: #3f6212; }
  .swagger-ui .info code, .swagger-ui .markdown code, .swagger-ui .renderedMarkdown code {
    background: #1e293b; color: #fde68a;
  }
  .swagger-ui .scheme-container, .swagger-ui .dialog-ux .modal-ux,
  .swagger-ui .opblock .opblock-section-header, .swagger-ui section.models,
  .swagger-ui section.models .model-container, .swagger-ui .model-box {
    background: #0f172a; box-shadow: none; border-color: #334155;
  }
  .swagger-ui .opblock-tag { border-bottom-color: #334155; }
  .swagger-ui .opblock { background: #0f172a; border-color: #334155; box-shadow: none; }
  .swagger-ui .opblock .opblock-summary { border-color: #334155; }
  .swagger-ui .btn { color: #e2e8f0; border-color: #64748b; background: transparent; }
  .swagger-ui .btn.authorize, .swagger-ui .btn.authorize span { color: #86efac; border-color: #86efac; }
  .swagger-ui .btn.authorize svg { fill: #86efac; }
  .swagger-ui .btn.execute { background: #1d4ed8; border-color: #1d4ed8; color: #ffffff; }
  .swagger-ui input[type=text], .swagger-ui input[type=password], .swagger-ui input[type=search],
  .swagger-ui input[type=email], .swagger-ui input[type=file], .swagger-ui textarea, .swagger-ui select {
    background: #1e293b; color: #e2e8f0; border-color: #475569;
  }
  .swagger-ui svg:not(:root) { fill: #e2e8f0; }
  .swagger-ui .opblock .opblock-summary-method { color: #ffffff; }
  .swagger-ui .parameter__name.required span, .swagger-ui .parameter__name.required:after { color: #fca5a5; }
  .swagger-ui :focus-visible { outline-color: #93c5fd; }
}
`.trim();
