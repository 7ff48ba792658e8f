import { DEFAULT_CHATBOT_COLOR } from '@courselens/contracts';

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;
const LIGHT_TEXT = '#ffffff';
const DARK_TEXT = '#0f172a';

/**
 * The agent's colour when it is a whole `#rrggbb`, else the default: an
 * author's odd value (or one the form is still typing) must not break a page.
 */
export function agentColor(color: string | null | undefined): string {
  const value = color?.trim() ?? '';
  return HEX.test(value) ? value.toLowerCase() : DEFAULT_CHATBOT_COLOR;
}

function channel(hex: string): number {
  const value = Number.parseInt(hex, 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance (WCAG 2) of a `#rrggbb` colour. */
function luminance(color: string): number {
  const [, r = '00', g = '00', b = '00'] = HEX.exec(color) ?? [];
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/**
 * White or near-black (slate-900), whichever has the higher WCAG contrast on
 * `background`: authors pick any colour, and white on a pale one would be
 * unreadable. A colour that is not a `#rrggbb` is read as the default.
 */
export function textColorOn(background: string): typeof LIGHT_TEXT | typeof DARK_TEXT {
  const value = luminance(agentColor(background));
  // White's luminance is 1.
  const onLight = 1.05 / (value + 0.05);
  const onDark = (value + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return onLight >= onDark ? LIGHT_TEXT : DARK_TEXT;
}
