import { type BinaryOperationNode, OperatorNode, type QueryCompiler, SqliteDialect, SqliteQueryCompiler, ValueNode } from 'kysely';

/** The comparisons SQLite's planner judges by a bound 0 or 1 (see KruhSqliteCompiler). */
const EQUALITY = new Set(['=', '==', 'is']);

/**
 * SQLite's compiler, writing each bound value as `+?` rather than `?`, and a 0 or 1 compared for
 * equality into the SQL text.
 *
 * Why `+?`: in a SELECT that joins tables, SQLite's constant propagation looks at each
 * `column = ?` and marks the statement to be compiled again whenever that value is bound anew,
 * which is every run: the statement cache then saved nothing for any statement with a join or a
 * joined subquery, and the signed-in listings (whose visibility checks join a post's groups, and
 * its hashtags with the reader's muted tags) were compiled on every call. The newest feed's page
 * of ids took 491,000 instructions of SQLite a run, 387,000 of them compiling; written `+?`, 99,000
 * (callgrind, the 100,000-post benchmark data). Unary plus leaves a value as it is (a bound value
 * has no affinity to lose), and `column = +?` still uses the column's index.
 *
 * Why the 0 or 1 written in (`deleted = 0`, `is_private = 1`): SQLite's planner guessed how
 * selective `column = ?` is from the bound value when it is 0 or 1, and so likewise compiled such a
 * statement again on every run: the like's checks (the post's visibility compares `is_private` with
 * 1) took about 140 µs of SQLite's time a call with the 1 bound and 17 µs with it written in. A
 * literal keeps one compiled plan; 0 and 1 are the only values it changes, so the SQL texts stay
 * few.
 */
class KruhSqliteCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }

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

/** Kysely's SQLite dialect with KruhSqliteCompiler. */
export class KruhSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new KruhSqliteCompiler();
  }
}
