import type { ReactNode } from 'react';
import '../economics.css';

export interface DataTableProps {
  caption: string;
  /** Hide the caption visually while keeping it for screen readers. */
  captionHidden?: boolean;
  head: readonly ReactNode[];
  rows: readonly (readonly ReactNode[])[];
  foot?: readonly ReactNode[];
  /** Columns (by index) holding numbers, right-aligned. */
  numeric?: readonly number[];
  /** Secondary columns (by index) dropped on narrow screens to keep the figures in view. */
  hideOnNarrow?: readonly number[];
}

/** A scrollable data table; the first cell of each row is its row header. */
export function DataTable({
  caption,
  captionHidden,
  head,
  rows,
  foot,
  numeric = [],
  hideOnNarrow = [],
}: DataTableProps) {
  const align = (column: number) =>
    [
      numeric.includes(column) ? 'is-numeric' : '',
      hideOnNarrow.includes(column) ? 'is-secondary' : '',
    ]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className="table-wrap info-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="table info-table">
        <caption className={captionHidden ? 'sr-only' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {head.map((cell, column) => (
              <th key={column} scope="col" className={align(column)}>
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, column) =>
                column === 0 ? (
                  <th key={column} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={column} className={align(column)}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {foot ? (
          <tfoot>
            <tr>
              {foot.map((cell, column) =>
                column === 0 ? (
                  <th key={column} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={column} className={align(column)}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
