import { useId } from 'react';

const HEX6 = /^#[0-9a-f]{6}$/i;
const HEX3 = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i;

/** A colour as text (#hex, rgb() or hsl(), as the API takes it) with a native picker beside it. */
export function ColorField({ label, pickerLabel, value, onChange, error, placeholder }: { label: string; pickerLabel: string; value: string; onChange(v: string): void; error?: string; placeholder?: string }) {
  const id = useId();
  const shown = value || placeholder || '';
  const short = HEX3.exec(shown);
  const hex = HEX6.test(shown) ? shown : short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : '#000000';
  return (
    <div className="ap-field ap-br-color">
      <label htmlFor={id}>{label}</label>
      <div className="ap-br-color__row">
        <input type="color" aria-label={pickerLabel} value={hex} onChange={(e) => onChange(e.target.value)} />
        <input
          id={id}
          value={value}
          placeholder={placeholder}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {error ? (
        <p className="ap-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A row of colour swatches (SVG: no style attributes under the CSP). */
export function Swatches({ colors, label }: { colors: string[]; label: string }) {
  return (
    <svg className="ap-br-swatches" role="img" aria-label={label} viewBox={`0 0 ${colors.length * 18} 16`} width={colors.length * 18} height={16}>
      {colors.map((c, i) => (
        <rect key={i} x={i * 18} y={0} width={16} height={16} rx={3} fill={c} stroke="#6b7280" strokeWidth={1} />
      ))}
    </svg>
  );
}
