// The sample invoices: for the hires that have worked, a fixed mix of paid, unpaid, overdue and
// credited invoices, with rows that add up to each invoice's net amount.
import { addDays } from "../dates.js";
import { itemAt, referenced } from "../records.js";
import { PLATFORM_ENTITY_NAME } from "./fixtures.js";
import { pad, round2 } from "./random.js";
import type {
  ContractRecord,
  InvoiceRecord,
  InvoiceRowRecord,
  InvoiceStatus,
  SandboxData,
} from "./types.js";

const TAX_RATE: Record<string, number> = { DKK: 0.25, USD: 0, EUR: 0.19 };

export function seedInvoices(
  data: SandboxData,
  today: string,
  int: (min: number, max: number) => number,
): void {
  const billable = [...data.hires.values()].filter(
    (h) =>
      (h.status === "ACTIVE" || h.status === "ENDED" || h.status === "TERMINATED") &&
      h.startDate !== null &&
      h.startDate < today,
  );
  const pattern: InvoiceStatus[] = [
    "PAID",
    "UNPAID",
    "OVERDUE",
    "PAID",
    "CREDITED",
    "UNPAID",
    "PAID",
    "OVERDUE",
  ];
  type Draft = Omit<InvoiceRecord, "id" | "number" | "rows"> & {
    rows: Omit<InvoiceRowRecord, "id">[];
  };
  const drafts: Draft[] = [];
  for (let i = 0; i < 64; i++) {
    const hire = itemAt(billable, i % billable.length);
    const contract = referenced(data.contracts, hire.contractIds.at(-1));
    const status = itemAt(pattern, i % pattern.length);
    const hours = int(16, 160);
    const hourly =
      contract.rateType === "DAILY"
        ? contract.rate / 8
        : contract.rateType === "MONTHLY"
          ? contract.rate / 160
          : contract.rate;
    const net = round2(hours * hourly);
    const tax = round2(net * (TAX_RATE[contract.currency] ?? 0));
    const gross = round2(net + tax);
    let date: string;
    let dueDate: string;
    let open = gross;
    let markedPaidAt: string | null = null;
    switch (status) {
      case "PAID":
        date = addDays(today, -int(35, 300));
        dueDate = addDays(date, 30);
        markedPaidAt = addDays(dueDate, -int(0, 12));
        open = 0;
        break;
      case "UNPAID":
        date = addDays(today, -int(0, 25));
        dueDate = addDays(date, 30);
        break;
      case "OVERDUE":
        date = addDays(today, -int(45, 150));
        dueDate = addDays(date, 30);
        // Some overdue invoices are partly paid.
        if (i % 3 === 0) open = round2(gross / 2);
        break;
      default:
        date = addDays(today, -int(30, 200));
        dueDate = addDays(date, 30);
        open = 0;
    }
    const rows = invoiceRows({
      contract,
      workerId: hire.workerId,
      date,
      hours,
      hourly,
      net,
    });
    const payee = hire.recruiterId
      ? (data.recruiters.find((r) => r.id === hire.recruiterId)?.name ?? PLATFORM_ENTITY_NAME)
      : PLATFORM_ENTITY_NAME;
    const base: Draft = {
      hireId: hire.id,
      purchaseOrderNumber: contract.purchaseOrderNumber,
      companyId: hire.companyId,
      currency: contract.currency,
      netAmount: net,
      taxAmount: tax,
      grossAmount: gross,
      grossOpenAmount: open,
      markedPaidAt,
      date,
      dueDate,
      payeeDisplayName: payee,
      transactionType: i % 16 === 9 ? "BATCH_INVOICE" : "INVOICE",
      isFullyCredited: status === "CREDITED",
      status,
      externalIdentifier: i % 5 === 2 ? `ERP-${70_000 + i}` : null,
      rows,
    };
    drafts.push(base);
    if (status === "CREDITED") {
      // The credit note that cancelled it: negative amounts, settled, counted as paid.
      const noteDate = addDays(date, int(2, 10));
      drafts.push({
        ...base,
        netAmount: -net,
        taxAmount: -tax,
        grossAmount: -gross,
        grossOpenAmount: 0,
        markedPaidAt: noteDate,
        date: noteDate,
        dueDate: noteDate,
        transactionType: "CREDIT_NOTE",
        isFullyCredited: false,
        status: "PAID",
        externalIdentifier: null,
        rows: rows.map((r) => ({ ...r, customText: `Credit: ${r.customText}` })),
      });
    }
  }
  drafts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const perYear = new Map<string, number>();
  let row = 0;
  data.invoices = drafts.map((d, index) => {
    const year = d.date.slice(0, 4);
    const prefix = d.transactionType === "CREDIT_NOTE" ? "CN" : "INV";
    const key = `${prefix}-${year}`;
    const seq = (perYear.get(key) ?? 0) + 1;
    perYear.set(key, seq);
    const rows = d.rows.map((r) => {
      row += 1;
      return { ...r, id: `row_${pad(row, 4)}` };
    });
    return { ...d, id: `inv_${pad(index + 1)}`, number: `${key}-${pad(seq, 4)}`, rows };
  });
}

const moneyText = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * The rows of one invoice, from what it bills (no randomness): the hours of the four weeks before
 * the invoice date, in two rows of two weeks when there are 80 hours or more. The amounts add up
 * to the invoice's net amount.
 */
function invoiceRows(bill: {
  contract: ContractRecord;
  workerId: string;
  date: string;
  hours: number;
  hourly: number;
  net: number;
}): Omit<InvoiceRowRecord, "id">[] {
  const { contract, date, hourly, net } = bill;
  const parts =
    bill.hours >= 80
      ? [
          { hours: Math.floor(bill.hours / 2), from: addDays(date, -28), to: addDays(date, -15) },
          {
            hours: bill.hours - Math.floor(bill.hours / 2),
            from: addDays(date, -14),
            to: addDays(date, -1),
          },
        ]
      : [{ hours: bill.hours, from: addDays(date, -28), to: addDays(date, -1) }];
  let billed = 0;
  return parts.map((part, index) => {
    const amount = index === parts.length - 1 ? round2(net - billed) : round2(part.hours * hourly);
    billed = round2(billed + amount);
    const po = contract.purchaseOrderNumber ? ` (PO ${contract.purchaseOrderNumber})` : "";
    const c = contract.currency;
    return {
      workerId: bill.workerId,
      billed: {
        from: part.from,
        to: part.to,
        hours: part.hours,
        rate: contract.rate,
        rateType: contract.rateType,
        amount,
      },
      customText: `${contract.jobName}, ${part.from} – ${part.to}: ${part.hours} hours × ${c} ${moneyText.format(hourly)} = ${c} ${moneyText.format(amount)}${po}`,
    };
  });
}
