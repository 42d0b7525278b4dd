import type { parse } from "@bufbuild/cel";
import { BOOL, DYN, INT, STRING, TIMESTAMP, VARIABLES, type Shape } from "./rule-variables";

// The static half of a rule's check (SPEC H2). @bufbuild/cel 0.6.1 parses and
// evaluates CEL, but its type checker handles only constants and identifiers
// (checker.js: any other expression throws "Unsupported expression kind"), so
// this walk over the parsed expression does what a rule needs of one: every
// name is a declared variable (or a macro's own), every field exists on the
// declared shape, operators get operands they accept, the result is bool, and
// the evaluation cost is bounded (below). Where a type cannot be known
// statically (a map literal, an unknown function) it is `dyn`, and the
// evaluation on a sample subject in compile-rule.ts checks the rest.

type Expr = ReturnType<typeof parse>["expr"];

/** A problem found, with the id of the expression it is about (its position is in the source info). */
export class ExpressionProblem extends Error {
  constructor(
    message: string,
    readonly exprId: bigint,
  ) {
    super(message);
  }
}

/**
 * SPEC H2's cost limit, in the terms this library allows: it has no step
 * counter, so the cost is bounded before evaluation. Each node costs 1; a
 * comprehension (all, exists, exists_one, map, filter) costs its body once per
 * element of the most its range can hold (a declared list's bound, a literal's
 * length, 100 where unknown). Inputs are bounded (hostnames, ≤ 32 MACs, ≤ 5
 * approvals), regexes are RE2 (linear time), so a bounded cost is bounded time.
 */
export const MAX_COST = 20_000;
const UNKNOWN_LIST_LENGTH = 100;

interface Typed {
  shape: Shape;
  cost: number;
}

const NUMERIC = new Set(["int", "uint", "double"]);
const scalarName = (shape: Shape): string =>
  shape.kind === "scalar" ? shape.name : shape.kind === "nullable" ? scalarName(shape.of) : shape.kind;
const describe = (shape: Shape): string =>
  shape.kind === "object" ? shape.name : shape.kind === "nullable" ? `${describe(shape.of)} or null` : scalarName(shape);
const isDyn = (shape: Shape) => scalarName(shape) === "dyn";
const unwrap = (shape: Shape): Shape => (shape.kind === "nullable" ? shape.of : shape);
const maxLength = (shape: Shape) => (shape.kind === "list" ? shape.maxLength : UNKNOWN_LIST_LENGTH);

const CONSTANT_SHAPES: Record<string, Shape> = {
  boolValue: BOOL,
  int64Value: INT,
  uint64Value: { kind: "scalar", name: "uint" },
  doubleValue: { kind: "scalar", name: "double" },
  stringValue: STRING,
  bytesValue: { kind: "scalar", name: "bytes" },
  nullValue: { kind: "scalar", name: "null" },
};

/** Checks `expr` against the declared variables; returns its result type and cost, or throws ExpressionProblem. */
export function checkExpression(expr: Expr): Typed {
  const typed = new Walk().visit(expr, new Map());
  if (!isDyn(typed.shape) && scalarName(typed.shape) !== "bool") {
    throw new ExpressionProblem(`the expression must evaluate to bool, not ${describe(typed.shape)}`, expr.id);
  }
  if (typed.cost > MAX_COST) {
    throw new ExpressionProblem(`the expression may cost up to ${typed.cost} evaluation steps; the limit is ${MAX_COST}`, expr.id);
  }
  return typed;
}

type Scope = Map<string, Shape>;

class Walk {
  visit(expr: Expr, scope: Scope): Typed {
    const kind = expr.exprKind;
    switch (kind.case) {
      case "constExpr":
        return { shape: CONSTANT_SHAPES[kind.value.constantKind.case ?? ""] ?? DYN, cost: 1 };
      case "identExpr": {
        const shape = scope.get(kind.value.name) ?? VARIABLES[kind.value.name];
        if (!shape)
          throw new ExpressionProblem(`unknown variable '${kind.value.name}': the variables are request, discovery and now`, expr.id);
        return { shape, cost: 1 };
      }
      case "selectExpr": {
        const operand = this.visit(kind.value.operand!, scope);
        const shape = this.field(operand.shape, kind.value.field, expr.id);
        return { shape: kind.value.testOnly ? BOOL : shape, cost: operand.cost + 1 };
      }
      case "callExpr": {
        const target = kind.value.target ? this.visit(kind.value.target, scope) : undefined;
        const args = kind.value.args.map((arg) => this.visit(arg, scope));
        const cost = 1 + (target?.cost ?? 0) + args.reduce((sum, arg) => sum + arg.cost, 0);
        return {
          shape: callShape(
            kind.value.function,
            target?.shape,
            args.map((arg) => arg.shape),
            expr.id,
          ),
          cost,
        };
      }
      case "listExpr": {
        const elements = kind.value.elements.map((element) => this.visit(element, scope));
        const element =
          elements.length > 0 && elements.every((each) => sameShape(each.shape, elements[0]!.shape)) ? elements[0]!.shape : DYN;
        return {
          shape: { kind: "list", element, maxLength: elements.length },
          cost: 1 + elements.reduce((sum, each) => sum + each.cost, 0),
        };
      }
      case "structExpr": {
        const entries = kind.value.entries.flatMap((entry) => {
          const key = entry.keyKind.case === "mapKey" ? [entry.keyKind.value] : [];
          return entry.value ? [...key, entry.value] : key;
        });
        return { shape: DYN, cost: 1 + entries.reduce((sum, each) => sum + this.visit(each, scope).cost, 0) };
      }
      case "comprehensionExpr": {
        const loop = kind.value;
        const range = this.visit(loop.iterRange!, scope);
        const rangeShape = unwrap(range.shape);
        if (!isDyn(rangeShape) && rangeShape.kind !== "list") {
          throw new ExpressionProblem(`cannot iterate over ${describe(range.shape)}: a macro needs a list`, loop.iterRange!.id);
        }
        const init = this.visit(loop.accuInit!, scope);
        const inner: Scope = new Map(scope);
        inner.set(loop.iterVar, rangeShape.kind === "list" ? rangeShape.element : DYN);
        inner.set(loop.accuVar, init.shape.kind === "list" ? { ...init.shape, maxLength: maxLength(rangeShape) } : init.shape);
        const condition = this.visit(loop.loopCondition!, inner);
        const step = this.visit(loop.loopStep!, inner);
        const result = this.visit(loop.result!, inner);
        const shape = result.shape.kind === "list" ? { ...result.shape, maxLength: maxLength(rangeShape) } : result.shape;
        return { shape, cost: range.cost + init.cost + maxLength(rangeShape) * (condition.cost + step.cost) + result.cost };
      }
      default:
        throw new ExpressionProblem("this kind of expression is not supported", expr.id);
    }
  }

  field(operand: Shape, field: string, exprId: bigint): Shape {
    const shape = unwrap(operand);
    if (isDyn(shape)) return DYN;
    if (shape.kind !== "object") throw new ExpressionProblem(`${describe(operand)} has no fields (selecting '${field}')`, exprId);
    const found = shape.fields[field];
    if (!found)
      throw new ExpressionProblem(`${shape.name} has no field '${field}'; it has ${Object.keys(shape.fields).join(", ")}`, exprId);
    return found;
  }
}

function sameShape(a: Shape, b: Shape): boolean {
  return scalarName(a) === scalarName(b) && a.kind !== "object";
}

const STRING_TESTS = new Set(["contains", "startsWith", "endsWith", "matches"]);
const CONVERSIONS: Record<string, Shape> = {
  int: INT,
  uint: { kind: "scalar", name: "uint" },
  double: { kind: "scalar", name: "double" },
  string: STRING,
  bool: BOOL,
  bytes: { kind: "scalar", name: "bytes" },
  timestamp: TIMESTAMP,
  duration: { kind: "scalar", name: "duration" },
  dyn: DYN,
};
const TIME_PARTS = new Set([
  "getFullYear",
  "getMonth",
  "getDayOfYear",
  "getDayOfMonth",
  "getDate",
  "getDayOfWeek",
  "getHours",
  "getMinutes",
  "getSeconds",
  "getMilliseconds",
]);

/** The result type of a call, refusing operands of a known wrong type. */
function callShape(fn: string, target: Shape | undefined, args: Shape[], exprId: bigint): Shape {
  const names = args.map((arg) => scalarName(unwrap(arg)));
  const known = (name: string) => name !== "dyn";
  const refuse = (what: string): never => {
    throw new ExpressionProblem(`${what} cannot take ${args.map(describe).join(" and ")}`, exprId);
  };
  switch (fn) {
    case "_&&_":
    case "_||_":
    case "!_":
    case "@not_strictly_false":
      if (names.some((name) => known(name) && name !== "bool")) refuse(`'${fn.replaceAll("_", "")}'`);
      return BOOL;
    case "_==_":
    case "_!=_":
    case "@in":
      return BOOL;
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_": {
      const [a, b] = names as [string, string];
      if (known(a) && known(b) && a !== b && !(NUMERIC.has(a) && NUMERIC.has(b))) refuse(`'${fn.replaceAll("_", "")}'`);
      return BOOL;
    }
    case "_+_":
    case "_-_":
    case "_*_":
    case "_/_":
    case "_%_":
      return arithmeticShape(fn, args, refuse);
    case "-_":
      if (known(names[0]!) && !NUMERIC.has(names[0]!)) refuse("'-'");
      return args[0]!;
    case "_?_:_":
      if (known(names[0]!) && names[0] !== "bool") refuse("'?:' (its condition)");
      return scalarName(args[1]!) === scalarName(args[2]!) ? args[1]! : DYN;
    case "_[_]": {
      const container = unwrap(args[0]!);
      if (container.kind === "list") return container.element;
      if (container.kind === "object") refuse("'[]' (select fields with '.')");
      return DYN;
    }
    case "size":
      return INT;
  }
  if (STRING_TESTS.has(fn) && target) {
    const on = scalarName(unwrap(target));
    if (known(on) && on !== "string") throw new ExpressionProblem(`'${fn}' applies to a string, not ${describe(target)}`, exprId);
    if (names.some((name) => known(name) && name !== "string")) refuse(`'${fn}'`);
    return BOOL;
  }
  if (TIME_PARTS.has(fn)) return INT;
  return CONVERSIONS[fn] ?? DYN;
}

function arithmeticShape(fn: string, args: Shape[], refuse: (what: string) => never): Shape {
  const [a, b] = args.map(unwrap) as [Shape, Shape];
  const [x, y] = [scalarName(a), scalarName(b)];
  if (x === "dyn" || y === "dyn") return DYN;
  const op = `'${fn.replaceAll("_", "")}'`;
  if (fn === "_+_" && a.kind === "list" && b.kind === "list") return { kind: "list", element: DYN, maxLength: a.maxLength + b.maxLength };
  if (fn === "_+_" && ((x === "string" && y === "string") || (x === "bytes" && y === "bytes"))) return a;
  if ((fn === "_+_" || fn === "_-_") && x === "timestamp" && y === "duration") return a;
  if (fn === "_-_" && x === "timestamp" && y === "timestamp") return CONVERSIONS.duration!;
  if ((fn === "_+_" || fn === "_-_") && x === "duration" && y === "duration") return a;
  if (NUMERIC.has(x) && x === y) return a;
  return refuse(op);
}
