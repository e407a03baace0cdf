import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
  /** The cell names its row (a `th` of the row), e.g. the item's name. */
  rowHeader?: boolean;
  /** The header is for screen readers only, e.g. over a column of buttons. */
  hideHeader?: boolean;
}

interface DataTableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /**
   * Names the frame as a region that takes keyboard focus, so that a table wider than the screen
   * can be scrolled with the arrow keys too, not only with a pointer.
   */
  label?: string;
}

/** A table of rows, one column per field; it scrolls inside its frame on narrow screens. */
export function DataTable<T>({ columns, rows, rowKey, label }: DataTableProps<T>) {
  const region = label === undefined ? {} : { role: 'region', 'aria-label': label, tabIndex: 0 };
  return (
    <div className="table-wrap" {...region}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <th scope="row" key={column.header} className={column.className}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={column.className}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
