import { DEFAULT_CHATBOT_COLOR } from '@courselens/contracts';

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;
const DARK_TEXT = '#0f172a';
const LIGHT_TEXT = '#ffffff';

/** The agent's colour when it is one we can read, else the default (an author's odd value must not break the page). */
export function agentColor(color: string | null | undefined): string {
  return color && HEX.test(color) ? color.toLowerCase() : DEFAULT_CHATBOT_COLOR;
}

function channel(hex: string): number {
  const value = Number.parseInt(hex, 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

function luminance(color: string): number {
  const [, r = '00', g = '00', b = '00'] = HEX.exec(color) ?? [];
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/**
 * White or near-black, whichever reads better on the agent's colour (WCAG
 * contrast): authors pick any colour, including pale ones.
 */
export function textColorOn(color: string): string {
  const background = luminance(agentColor(color));
  const onWhite = 1.05 / (background + 0.05);
  const onDark = (background + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return onWhite >= onDark ? LIGHT_TEXT : DARK_TEXT;
}
