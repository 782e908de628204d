export { escapeHtml } from '../../lib/text-html.js';
