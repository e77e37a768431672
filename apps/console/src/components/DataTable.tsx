import type { HTMLAttributes, Key, ReactNode } from 'react';
import { t } from '../lib/strings';

/** One column of a {@link DataTable}: its header and how a row fills its cell. */
export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The row's header cell (`<th scope="row">`), which names the row for assistive technology. */
  rowHeader?: boolean;
  /** Class of the column's body cells. */
  className?: string;
  /** Class of the column's header cell. */
  headerClassName?: string;
}

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => Key;
  /** Extra attributes of a row's `<tr>` (a class, `aria-current`). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement>;
  /** The table's caption, visually hidden unless `captionClassName` styles a shown one. */
  caption?: ReactNode;
  captionClassName?: string;
  'aria-label'?: string;
  /** A row's actions, in a last cell under a visually hidden header. */
  actions?: (row: T) => ReactNode;
  /** The hidden header's text over the actions. */
  actionsLabel?: string;
}

/**
 * The console's list table (`ap-table` in its scrolling wrapper): column headers, one row per item, an
 * optional caption and an optional actions cell per row, so every list reads the same to a screen reader.
 */
export function DataTable<T>({ columns, rows, rowKey, rowProps, caption, captionClassName, actions, actionsLabel = t.actions, 'aria-label': ariaLabel }: DataTableProps<T>) {
  return (
    <div className="ap-table-wrap">
      <table className="ap-table" aria-label={ariaLabel}>
        {caption ? <caption className={captionClassName ?? 'ap-visually-hidden'}>{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={c.headerClassName}>
                {c.header}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="ap-visually-hidden">{actionsLabel}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, n) => (
            <tr key={rowKey(row, n)} {...rowProps?.(row)}>
              {columns.map((c, i) =>
                c.rowHeader ? (
                  <th key={i} scope="row" className={c.className}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={i} className={c.className}>
                    {c.cell(row)}
                  </td>
                ),
              )}
              {actions ? <td className="ap-row-actions">{actions(row)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
