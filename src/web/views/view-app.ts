/// <reference lib="dom" />
// The browser side of every MCP Apps view (bundled into each ui:// page by src/web/app-views.ts):
// the ext-apps App class talks to the host over postMessage; this renders the tool's answer as
// tables, and the confirmation card with Confirm and Cancel. Every platform value is set as text,
// never as HTML, and shown whole.
import { App } from "@modelcontextprotocol/ext-apps";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Obj;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

interface Card {
  tool: string;
  state: string;
  lines: string[];
  facts: Record<string, Json>;
  consequence: string;
  question: string;
}

const CARD_META_KEY = "workforce/confirmation";
const CONFIRM_CHANGE_TOOL = "confirm_change";

const view = document.body.dataset.view ?? "";
const root = document.getElementById("root") as HTMLElement;
const app = new App({ name: "workforce-mcp view", version: "1.0.0" });
let input: Obj | undefined;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isMoneyKey = (key: string) =>
  /amount|gross|open|payable|approved|awaiting|rejected|cancelled|^rate$/i.test(key);

/** An amount as money is written: two decimals, whole. */
const money = (value: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const isNumberKey = (key: string) => /amount|gross|open|hours|rate|total|count|days/i.test(key);

/** A value as one cell: scalars whole, a list of scalars joined, anything deeper as JSON. */
function cellText(value: Json | undefined): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (typeof value === "string" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => !isObj(v) && !Array.isArray(v))) {
    return value.map((v) => cellText(v)).join(", ");
  }
  return JSON.stringify(value);
}

/** A list of records as one table, a column per scalar field (nested records inline as JSON). */
function table(rows: Obj[], flagged?: (row: Obj, index: number) => boolean): HTMLTableElement {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const t = el("table");
  const head = t.createTHead().insertRow();
  for (const column of columns) {
    head.appendChild(el("th", column, isNumberKey(column) ? "n" : undefined));
  }
  const body = t.createTBody();
  rows.forEach((row, index) => {
    const tr = body.insertRow();
    if (flagged?.(row, index)) tr.className = "flag";
    for (const column of columns) {
      const value = row[column];
      const cell = tr.insertCell();
      cell.textContent = isObj(value)
        ? objectLine(value)
        : typeof value === "number" && isMoneyKey(column)
          ? money(value)
          : cellText(value);
      if (typeof value === "number") cell.className = "n";
    }
  });
  return t;
}

/** A record in one cell: its name when it has one (a worker, a company), else its fields. */
const objectLine = (value: Obj) =>
  typeof value.name === "string"
    ? value.name
    : Object.entries(value)
        .map(([k, v]) => `${k}: ${cellText(v)}`)
        .join("; ");

/** An object as label/value rows; its lists of records as tables under their name. */
function details(object: Obj, parent: HTMLElement, skip: readonly string[] = []): void {
  const t = el("table");
  for (const [key, value] of Object.entries(object)) {
    if (skip.includes(key)) continue;
    if (Array.isArray(value) && (value.length === 0 || value.some(isObj))) continue;
    if (isObj(value)) continue;
    const tr = t.insertRow();
    tr.appendChild(el("th", key));
    tr.insertCell().textContent =
      typeof value === "number" && isMoneyKey(key) ? money(value) : cellText(value);
  }
  t.className = "kv";
  if (t.rows.length > 0) parent.appendChild(t);
  for (const [key, value] of Object.entries(object)) {
    if (skip.includes(key)) continue;
    if (isObj(value)) {
      parent.appendChild(el("h2", key));
      details(value, parent);
    } else if (Array.isArray(value) && value.some(isObj)) {
      parent.appendChild(el("h2", key));
      parent.appendChild(table(value.filter(isObj)));
    }
  }
}

/** The fields a table shows of a record, in this order; the rest stays in the text answer. */
function pick(record: Obj, keys: readonly string[]): Obj {
  return Object.fromEntries(
    keys.filter((key) => key in record).map((key) => [key, record[key] ?? null]),
  );
}

/** A hire in one row: who, where, when, and the terms of its contract in force (or next, or last). */
function hireRow(hire: Obj): Obj {
  const worker = isObj(hire.worker) ? hire.worker : {};
  const company = isObj(hire.company) ? hire.company : {};
  const contract = [hire.activeContract, hire.draftContract, hire.latestContract].find(isObj);
  const rate =
    contract && typeof contract.rate === "number"
      ? `${contract.currency ?? ""} ${money(contract.rate)} ${String(contract.rateType ?? "").toLowerCase()}`
      : null;
  return {
    hire: hire.id ?? null,
    worker: worker.name ?? null,
    company: company.name ?? null,
    status: hire.status ?? null,
    startDate: hire.startDate ?? null,
    endDate: hire.endDate ?? null,
    job: contract?.jobName ?? null,
    rate,
  };
}

function textOf(result: ToolResult): string {
  return (result.content ?? [])
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n");
}

function render(result: ToolResult): void {
  root.replaceChildren();
  const data = result.structuredContent;
  const card = result._meta?.[CARD_META_KEY] as Card | undefined;
  if (view === "confirmation") {
    renderCard(result, card);
    return;
  }
  if (!data || result.isError) {
    root.appendChild(el("div", textOf(result), "outcome"));
    return;
  }
  if (view === "hires") {
    root.appendChild(el("h1", "Hires"));
    const hires = Array.isArray(data.hires) ? data.hires.filter(isObj).map(hireRow) : [];
    root.appendChild(hires.length ? table(hires) : el("p", "No hires match.", "note"));
    details(data, root, ["hires"]);
  } else if (view === "invoices") {
    root.appendChild(el("h1", "Invoices"));
    if (Array.isArray(data.totals) && data.totals.length) {
      root.appendChild(el("h2", "Totals per currency"));
      root.appendChild(table(data.totals.filter(isObj)));
    }
    const invoices = Array.isArray(data.invoices)
      ? data.invoices
          .filter(isObj)
          .map((invoice) =>
            pick(invoice, [
              "number",
              "date",
              "dueDate",
              "payer",
              "payee",
              "type",
              "currency",
              "grossAmount",
              "openAmount",
              "overdue",
            ]),
          )
      : [];
    root.appendChild(el("h2", "Invoices"));
    root.appendChild(invoices.length ? table(invoices) : el("p", "No invoices.", "note"));
    details(data, root, ["invoices", "totals"]);
  } else if (view === "timesheets") {
    renderTimesheets(data);
  } else {
    root.appendChild(el("h1", view === "hire" ? "Hire" : "Answer"));
    details(data, root);
  }
}

/** A grid of hours: a row per hire, a column per day; `flag` marks a cell. */
function hoursGrid(
  cells: { hire: string; day: string; hours: number }[],
  flag: (hire: string, day: string) => boolean = () => false,
): HTMLTableElement {
  const days = [...new Set(cells.map((c) => c.day))].sort();
  const hires = [...new Set(cells.map((c) => c.hire))];
  const t = el("table");
  const head = t.createTHead().insertRow();
  head.appendChild(el("th", "hire"));
  for (const day of days) head.appendChild(el("th", day, "n"));
  head.appendChild(el("th", "total", "n"));
  const body = t.createTBody();
  for (const hire of hires) {
    const tr = body.insertRow();
    tr.appendChild(el("th", hire));
    let total = 0;
    for (const day of days) {
      const here = cells.filter((c) => c.hire === hire && c.day === day);
      const hours = here.reduce((sum, c) => sum + c.hours, 0);
      total += hours;
      const cell = tr.insertCell();
      cell.textContent = here.length ? cellText(hours) : "";
      cell.className = flag(hire, day) ? "n flag" : "n";
      if (flag(hire, day)) cell.title = "already logged";
    }
    const sum = tr.insertCell();
    sum.textContent = cellText(total);
    sum.className = "n";
  }
  return t;
}

/** list_payment_requests as a timesheet: hours per day per hire, money per currency. */
function renderTimesheets(data: Obj): void {
  root.appendChild(el("h1", "Timesheets"));
  const requests = Array.isArray(data.paymentRequests) ? data.paymentRequests.filter(isObj) : [];
  const cells = requests.flatMap((request) => {
    const worker = isObj(request.worker) ? String(request.worker.name) : "";
    const hire = `${request.hireId ?? "—"} ${worker}`.trim();
    const days = Array.isArray(request.registrations) ? request.registrations.filter(isObj) : [];
    return days.map((day) => ({
      hire,
      day: String(day.date),
      hours: Number(day.duration ?? 0),
    }));
  });
  if (cells.length) {
    root.appendChild(el("h2", "Hours per day per hire"));
    root.appendChild(hoursGrid(cells));
  } else {
    root.appendChild(el("p", "Daily hours are shown when asked for (includeHours).", "note"));
  }
  if (Array.isArray(data.totals) && data.totals.length) {
    root.appendChild(el("h2", "Money per currency"));
    root.appendChild(table(data.totals.filter(isObj)));
  }
  root.appendChild(el("h2", "Payment requests"));
  const rows = requests.map((request) =>
    pick(request, [
      "number",
      "hireId",
      "worker",
      "company",
      "startDate",
      "endDate",
      "status",
      "currency",
      "amount",
      "hours",
    ]),
  );
  root.appendChild(rows.length ? table(rows) : el("p", "No payment requests.", "note"));
  details(data, root, ["paymentRequests", "totals"]);
}

/** submit_timesheets' rows as a week: hours per day per hire, days already logged flagged. */
function weekGrid(preview: Obj): HTMLElement | undefined {
  const rows = Array.isArray(input?.registrations) ? input.registrations.filter(isObj) : [];
  if (rows.length === 0) return undefined;
  const logged = new Set(
    (Array.isArray(preview.daysAlreadyLogged) ? preview.daysAlreadyLogged.filter(isObj) : []).map(
      (day) => `${day.hireId}|${day.reportedDate}`,
    ),
  );
  const cells = rows.map((row) => ({
    hire: String(row.hireId),
    day: String(row.reportedDate),
    hours: Number(row.hours ?? 0),
  }));
  return hoursGrid(cells, (hire, day) => logged.has(`${hire}|${day}`));
}

function renderCard(result: ToolResult, card: Card | undefined): void {
  const data = result.structuredContent ?? {};
  if (!card) {
    // An answer without a card: the outcome of a confirmation, or a preview for a client that
    // confirms otherwise. Shown as the server said it.
    root.appendChild(el("h1", String(data.status ?? (result.isError ? "error" : "answer"))));
    root.appendChild(el("div", textOf(result), "outcome"));
    return;
  }
  root.appendChild(el("h1", card.question));
  const list = el("ul");
  for (const line of card.lines) list.appendChild(el("li", line));
  root.appendChild(list);
  root.appendChild(el("h2", "What you decide on"));
  const facts = el("table", undefined, "kv");
  for (const [label, value] of Object.entries(card.facts)) {
    const tr = facts.insertRow();
    tr.appendChild(el("th", label));
    tr.insertCell().textContent = cellText(value);
  }
  root.appendChild(facts);
  const preview = isObj(data.preview) ? data.preview : undefined;
  if (preview) {
    const logged = Array.isArray(preview.daysAlreadyLogged)
      ? preview.daysAlreadyLogged.filter(isObj)
      : [];
    const grid = weekGrid(preview);
    if (grid) {
      root.appendChild(el("h2", "Hours per day per hire"));
      root.appendChild(grid);
    }
    if (Array.isArray(preview.totals) && preview.totals.length) {
      root.appendChild(el("h2", "Money per currency"));
      root.appendChild(table(preview.totals.filter(isObj)));
    }
    if (logged.length) {
      root.appendChild(el("h2", `Days already logged (${logged.length})`, "flag"));
      root.appendChild(table(logged, () => true));
    }
    if (Array.isArray(preview.hires) && preview.hires.some(isObj)) {
      root.appendChild(el("h2", "Hires"));
      root.appendChild(table(preview.hires.filter(isObj)));
    }
  }
  root.appendChild(el("p", card.consequence, "consequence"));
  const confirm = el("button", "Confirm", "confirm");
  const cancel = el("button", "Cancel", "cancel");
  const outcome = el("div", undefined, "outcome");
  outcome.hidden = true;
  const done = (text: string) => {
    confirm.disabled = true;
    cancel.disabled = true;
    outcome.hidden = false;
    outcome.textContent = text;
  };
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    cancel.disabled = true;
    try {
      const answer = (await app.callServerTool({
        name: CONFIRM_CHANGE_TOOL,
        arguments: { confirmation: card.state },
      })) as ToolResult;
      // A fresh card (the platform changed meanwhile) replaces this one.
      if (answer._meta?.[CARD_META_KEY]) {
        render(answer);
        return;
      }
      done(textOf(answer));
      await app
        .updateModelContext({ content: [{ type: "text", text: textOf(answer) }] })
        .catch(() => {});
    } catch (error) {
      done(`The confirmation could not be sent to the server: ${String(error)}`);
    }
  });
  cancel.addEventListener("click", async () => {
    done("Cancelled: nothing was sent.");
    await app
      .updateModelContext({
        content: [{ type: "text", text: `The person cancelled ${card.tool}: nothing was sent.` }],
      })
      .catch(() => {});
  });
  root.append(confirm, cancel, outcome);
}

app.ontoolinput = (params) => {
  input = params.arguments as Obj | undefined;
};
app.ontoolresult = (result) => render(result as ToolResult);
void app.connect();
