#include "postgrespages.h"

#include <QSqlDriver>
#include <QVariant>
#include <charconv>
#include <dlfcn.h>
#include <optional>
#include <postgresql/libpq-fe.h>
#include <type_traits>

namespace switchyard {

namespace {

constexpr int rowsPerBatch = 8192;

const char* const selectColumns = "SELECT time_ms, severity, kind, network, node, method, tx_id, "
                                  "height, message FROM events";

// libpq's functions as the QPSQL plugin loaded them. Linking libpq would load it, and OpenSSL
// and Kerberos with it (4.5 MiB more peak RSS in an SQLite export), into every process.
struct Libpq
{
    decltype(&PQexec) exec = nullptr;
    decltype(&PQexecParams) execParams = nullptr;
    decltype(&PQresultStatus) resultStatus = nullptr;
    decltype(&PQresultErrorMessage) resultErrorMessage = nullptr;
    decltype(&PQerrorMessage) errorMessage = nullptr;
    decltype(&PQclear) clear = nullptr;
    decltype(&PQntuples) ntuples = nullptr;
    decltype(&PQgetvalue) getvalue = nullptr;
    decltype(&PQgetlength) getlength = nullptr;
    decltype(&PQgetisnull) getisnull = nullptr;

    // Found only while libpq is in the process (a QPSQL connection is open); not cached, as
    // the plugin may be unloaded with its last connection.
    static std::optional<Libpq> loaded()
    {
        void* library = dlopen("libpq.so.5", RTLD_NOW | RTLD_NOLOAD);
        if (!library)
            return std::nullopt;
        Libpq pq;
        const auto find = [library](auto& function, const char* name) {
            function =
                reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
            return function != nullptr;
        };
        const bool found = find(pq.exec, "PQexec") && find(pq.execParams, "PQexecParams") &&
                           find(pq.resultStatus, "PQresultStatus") &&
                           find(pq.resultErrorMessage, "PQresultErrorMessage") &&
                           find(pq.errorMessage, "PQerrorMessage") && find(pq.clear, "PQclear") &&
                           find(pq.ntuples, "PQntuples") && find(pq.getvalue, "PQgetvalue") &&
                           find(pq.getlength, "PQgetlength") && find(pq.getisnull, "PQgetisnull");
        dlclose(library); // the plugin's reference keeps it loaded
        return found ? std::optional<Libpq>(pq) : std::nullopt;
    }
};

PGconn* postgresHandle(const QSqlDatabase& db)
{
    if (db.driverName() != QLatin1String("QPSQL") || !db.driver() || !db.isOpen())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "PGconn*") != 0)
        return nullptr;
    return *static_cast<PGconn* const*>(handle.constData());
}

// One statement's result, cleared when it goes.
class Result
{
public:
    Result(const Libpq& pq, PGresult* result)
        : m_pq(pq)
        , m_result(result)
    {}
    ~Result() { m_pq.clear(m_result); }
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;

    bool is(ExecStatusType status) const { return m_pq.resultStatus(m_result) == status; }
    QString error(PGconn* connection) const
    {
        const char* message =
            m_result ? m_pq.resultErrorMessage(m_result) : m_pq.errorMessage(connection);
        return QString::fromUtf8(message).simplified();
    }
    int rows() const { return m_pq.ntuples(m_result); }
    QByteArrayView text(int row, int column) const
    {
        return {m_pq.getvalue(m_result, row, column),
                qsizetype(m_pq.getlength(m_result, row, column))};
    }
    qint64 integer(int row, int column) const
    {
        const QByteArrayView cell = text(row, column);
        qint64 value = 0;
        std::from_chars(cell.data(), cell.data() + cell.size(), value);
        return value;
    }
    bool isNull(int row, int column) const { return m_pq.getisnull(m_result, row, column) != 0; }

private:
    const Libpq& m_pq;
    PGresult* m_result;
};

QString command(const Libpq& pq, PGconn* connection, const char* sql)
{
    const Result result(pq, pq.exec(connection, sql));
    return result.is(PGRES_COMMAND_OK) ? QString() : result.error(connection);
}

QByteArray parameterText(const QVariant& value)
{
    return value.typeId() == QMetaType::QString ? value.toString().toUtf8()
                                                : QByteArray::number(value.toLongLong());
}

// Batches from one cursor until the last, or until `row` says stop; inside the caller's
// transaction. One query, one plan: keyset pages (a query each) were planned one by one and
// took three times psql's \copy.
QString readBatches(const Libpq& pq, PGconn* connection, const SqlCondition& condition,
                    const std::function<bool(const PostgresEventRow&)>& row)
{
    const QByteArray declare =
        numberedPlaceholders(QStringLiteral("DECLARE switchyard_csv NO SCROLL CURSOR FOR ") +
                             QLatin1String(selectColumns) + condition.whereClause() +
                             QStringLiteral(" ORDER BY time_ms, id"));
    QList<QByteArray> texts;
    for (const QVariant& value : condition.values)
        texts << parameterText(value);
    std::vector<const char*> values;
    for (const QByteArray& text : texts)
        values.push_back(text.constData());
    {
        const Result declared(pq, pq.execParams(connection, declare.constData(), int(values.size()),
                                                nullptr, values.data(), nullptr, nullptr, 0));
        if (!declared.is(PGRES_COMMAND_OK))
            return declared.error(connection);
    }
    const QByteArray fetch = "FETCH " + QByteArray::number(rowsPerBatch) + " FROM switchyard_csv";
    for (;;) {
        const Result result(pq, pq.exec(connection, fetch.constData()));
        if (!result.is(PGRES_TUPLES_OK))
            return result.error(connection);
        const int rows = result.rows();
        for (int i = 0; i < rows; ++i) {
            PostgresEventRow event;
            event.timeMs = result.integer(i, 0);
            event.severity = result.integer(i, 1);
            event.kind = result.text(i, 2);
            event.network = result.text(i, 3);
            event.node = result.text(i, 4);
            event.method = result.text(i, 5);
            event.txId = result.text(i, 6);
            if (!result.isNull(i, 7))
                event.height = result.integer(i, 7);
            event.message = result.text(i, 8);
            if (!row(event))
                return {};
        }
        if (rows < rowsPerBatch)
            return {};
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
    const std::optional<Libpq> pq = Libpq::loaded();
    if (!pq)
        return QStringLiteral("libpq is not loaded with Qt's PostgreSQL driver");
    if (const QString error = command(*pq, connection, "BEGIN READ ONLY"); !error.isEmpty())
        return error;
    // The whole result is read: plan the cursor for all of it, as psql's \copy is, not for
    // its first rows (cursor_tuple_fraction 0.1).
    QString error = command(*pq, connection, "SET LOCAL cursor_tuple_fraction = 1.0");
    if (error.isEmpty())
        error = readBatches(*pq, connection, condition, row);
    const QString ended = command(*pq, connection, error.isEmpty() ? "COMMIT" : "ROLLBACK");
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
