import * as yup from 'yup';
import { str } from '../../shared/validation';

/** Values become CSS custom properties, so only plain colour and length syntaxes are accepted. */
const COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/]+\)|[a-z]{3,30})$/i;
const LENGTH = /^\d{1,5}(\.\d{1,3})?(px|rem|em|%|vw|vh|ch)?$/;
const FONT_FAMILY = /^[\w\s,'"-]{1,200}$/;
const COLOR_NAME = /^[a-zA-Z][\w-]{0,39}$/;

export const themeCustomizationSchema = yup.object({
  // mixed, not object(): an object schema without a shape would strip every colour as an unknown key.
  colors: yup
    .mixed<Record<string, string>>()
    .test('colors', 'colors must map names to CSS colours (#hex, rgb(), hsl() or a colour name)', (value) => {
      if (value === undefined) return true;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const entries = Object.entries(value as Record<string, unknown>);
      return (
        entries.length <= 40 &&
        entries.every(([k, v]) => COLOR_NAME.test(k) && typeof v === 'string' && COLOR.test(v.trim()))
      );
    }),
  typography: yup
    .object({
      fontFamily: str().matches(FONT_FAMILY, 'typography.fontFamily may hold letters, digits, spaces, commas, quotes and hyphens'),
      fontSize: str().matches(LENGTH, 'typography.fontSize must be a CSS length such as 16px'),
    })
    .default(undefined),
  layout: yup
    .object({
      sidebarPosition: str().oneOf(['left', 'right'], 'layout.sidebarPosition must be left or right'),
      maxWidth: str().matches(LENGTH, 'layout.maxWidth must be a CSS length such as 1200px'),
    })
    .default(undefined),
});
