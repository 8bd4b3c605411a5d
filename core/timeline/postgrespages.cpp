#include "postgrespages.h"

#include <QSqlDriver>
#include <QVariant>
#include <charconv>
#include <libpq-fe.h>
#include <memory>

namespace switchyard {

namespace {

constexpr int rowsPerPage = 8192;

const char* const pageColumns = "SELECT time_ms, severity, kind, network, node, method, tx_id, "
                                "height, message, id FROM events";

PGconn* postgresHandle(const QSqlDatabase& db)
{
    if (db.driverName() != QLatin1String("QPSQL") || !db.driver() || !db.isOpen())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "PGconn*") != 0)
        return nullptr;
    return *static_cast<PGconn* const*>(handle.constData());
}

struct ResultDeleter
{
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

QString errorOf(const PGresult* result, PGconn* connection)
{
    const char* message = result ? PQresultErrorMessage(result) : PQerrorMessage(connection);
    return QString::fromUtf8(message).simplified();
}

QString command(PGconn* connection, const char* sql)
{
    const Result result(PQexec(connection, sql));
    return PQresultStatus(result.get()) == PGRES_COMMAND_OK ? QString()
                                                            : errorOf(result.get(), connection);
}

qint64 integerCell(const PGresult* result, int row, int column)
{
    const char* text = PQgetvalue(result, row, column);
    qint64 value = 0;
    std::from_chars(text, text + PQgetlength(result, row, column), value);
    return value;
}

QByteArrayView textCell(const PGresult* result, int row, int column)
{
    return {PQgetvalue(result, row, column), qsizetype(PQgetlength(result, row, column))};
}

QByteArray parameterText(const QVariant& value)
{
    return value.typeId() == QMetaType::QString ? value.toString().toUtf8()
                                                : QByteArray::number(value.toLongLong());
}

// Pages until the last one, or until `row` says stop; inside the caller's transaction.
QString readPages(PGconn* connection, const SqlCondition& condition,
                  const std::function<bool(const PostgresEventRow&)>& row)
{
    QByteArray lastTime;
    QByteArray lastId;
    for (;;) {
        SqlCondition page = condition;
        if (!lastId.isEmpty())
            page = condition.and_(
                SqlCondition{QStringLiteral("(time_ms, id) > (?, ?)"),
                             {QString::fromLatin1(lastTime), QString::fromLatin1(lastId)}});
        const QByteArray sql =
            numberedPlaceholders(QLatin1String(pageColumns) + page.whereClause() +
                                 QStringLiteral(" ORDER BY time_ms, id LIMIT %1").arg(rowsPerPage));
        QList<QByteArray> texts;
        std::vector<const char*> values;
        for (const QVariant& value : page.values)
            texts << parameterText(value);
        for (const QByteArray& text : texts)
            values.push_back(text.constData());
        const Result result(PQexecParams(connection, sql.constData(), int(values.size()), nullptr,
                                         values.data(), nullptr, nullptr, 0));
        if (PQresultStatus(result.get()) != PGRES_TUPLES_OK)
            return errorOf(result.get(), connection);
        const int rows = PQntuples(result.get());
        for (int i = 0; i < rows; ++i) {
            PostgresEventRow event;
            event.timeMs = integerCell(result.get(), i, 0);
            event.severity = integerCell(result.get(), i, 1);
            event.kind = textCell(result.get(), i, 2);
            event.network = textCell(result.get(), i, 3);
            event.node = textCell(result.get(), i, 4);
            event.method = textCell(result.get(), i, 5);
            event.txId = textCell(result.get(), i, 6);
            if (!PQgetisnull(result.get(), i, 7))
                event.height = integerCell(result.get(), i, 7);
            event.message = textCell(result.get(), i, 8);
            if (!row(event))
                return {};
        }
        if (rows < rowsPerPage)
            return {};
        lastTime = textCell(result.get(), rows - 1, 0).toByteArray();
        lastId = textCell(result.get(), rows - 1, 9).toByteArray();
    }
}

} // namespace

bool hasPostgresHandle(const QSqlDatabase& db)
{
    return postgresHandle(db) != nullptr;
}

QString readPostgresEvents(const QSqlDatabase& db, const SqlCondition& condition,
                           const std::function<bool(const PostgresEventRow&)>& row)
{
    PGconn* connection = postgresHandle(db);
    if (!connection)
        return QStringLiteral("not a PostgreSQL connection");
    if (const QString error =
            command(connection, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        !error.isEmpty())
        return error;
    const QString error = readPages(connection, condition, row);
    const QString ended = command(connection, error.isEmpty() ? "COMMIT" : "ROLLBACK");
    return error.isEmpty() ? ended : error;
}

QByteArray numberedPlaceholders(const QString& sql, int first)
{
    QByteArray numbered;
    numbered.reserve(sql.size() + 16);
    const QByteArray utf8 = sql.toUtf8();
    char quote = 0;
    int next = first;
    for (const char c : utf8) {
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '?') {
            numbered += '$' + QByteArray::number(next++);
            continue;
        }
        numbered += c;
    }
    return numbered;
}

} // namespace switchyard
