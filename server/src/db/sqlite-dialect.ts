import { type BinaryOperationNode, OperatorNode, type QueryCompiler, SqliteDialect, SqliteQueryCompiler, ValueNode } from 'kysely';

/** The comparisons SQLite's planner judges by a bound 0 or 1 (see FlagLiteralCompiler). */
const EQUALITY = new Set(['=', '==', 'is']);

/**
 * SQLite's compiler, writing a 0 or 1 compared for equality (`deleted = 0`, `is_private = 1`) into
 * the SQL text instead of binding it.
 *
 * Why: SQLite's planner guesses how selective `column = ?` is from the bound value when it is 0 or
 * 1, so a statement that compares a column with a bound 0 or 1 is marked to be compiled again
 * whenever that value is bound anew: every time it runs, since each run binds its values. The
 * statement cache then saves nothing for it, and a big statement pays its whole compilation on
 * every call: the like's checks (the post's visibility compares `is_private` with 1) took about
 * 140 µs of SQLite's time a call with the 1 bound and 17 µs with it written in. A literal keeps one
 * compiled plan; 0 and 1 are the only values it changes, so the SQL texts stay few.
 */
class FlagLiteralCompiler extends SqliteQueryCompiler {
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const { leftOperand, operator, rightOperand } = node;
    if (
      ValueNode.is(rightOperand) && !rightOperand.immediate && (rightOperand.value === 0 || rightOperand.value === 1) &&
      OperatorNode.is(operator) && EQUALITY.has(operator.operator)
    ) {
      this.visitNode(leftOperand);
      this.append(' ');
      this.visitNode(operator);
      this.append(' ');
      this.appendImmediateValue(rightOperand.value);
      return;
    }
    super.visitBinaryOperation(node);
  }
}

/** Kysely's SQLite dialect with FlagLiteralCompiler. */
export class KruhSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new FlagLiteralCompiler();
  }
}
