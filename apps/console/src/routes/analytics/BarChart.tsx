/**
 * A small horizontal bar chart in SVG (no chart library): one row per item, one or two stacked series.
 * The bars are a picture of the table that follows it, which carries the figures for everyone.
 */
export interface Bar {
  label: string;
  values: number[];
}

export function BarChart({ title, bars, series, format }: { title: string; bars: Bar[]; series: string[]; format: (n: number) => string }) {
  const max = Math.max(1e-9, ...bars.map((b) => b.values.reduce((a, v) => a + v, 0)));
  return (
    <div className="ap-chart" aria-hidden>
      {series.length > 1 ? (
        <p className="ap-chart__legend">
          {series.map((name, i) => (
            <span key={name} className="ap-chart__key">
              <svg width="12" height="12" viewBox="0 0 12 12">
                <rect width="12" height="12" className={`ap-chart__bar ap-chart__bar--${i}`} />
              </svg>
              {name}
            </span>
          ))}
        </p>
      ) : null}
      {bars.map((bar) => {
        const total = bar.values.reduce((a, v) => a + v, 0);
        let x = 0;
        return (
          <div key={bar.label} className="ap-chart__row" title={`${title}: ${bar.label}`}>
            <span className="ap-chart__label">{bar.label}</span>
            <svg className="ap-chart__track" viewBox="0 0 100 10" preserveAspectRatio="none">
              {bar.values.map((v, i) => {
                const width = (v / max) * 100;
                const rect = <rect key={i} x={x} y={0} width={width} height={10} className={`ap-chart__bar ap-chart__bar--${i}`} />;
                x += width;
                return rect;
              })}
            </svg>
            <span className="ap-chart__value">{format(total)}</span>
          </div>
        );
      })}
    </div>
  );
}
