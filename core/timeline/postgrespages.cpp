#include "postgrespages.h"

#include <QSqlDriver>
#include <QVariant>
#include <array>
#include <charconv>
#include <dlfcn.h>
#include <optional>
#include <postgresql/libpq-fe.h>
#include <type_traits>

namespace switchyard {

namespace {

const char* const selectColumns = "SELECT time_ms, severity, kind, network, node, method, tx_id, "
                                  "height, message FROM events";
constexpr int columnCount = 9;

// libpq's functions as the QPSQL plugin loaded them. Linking libpq would load it, and OpenSSL
// and Kerberos with it (4.5 MiB more peak RSS in an SQLite export), into every process.
struct Libpq
{
    decltype(&PQexec) exec = nullptr;
    decltype(&PQresultStatus) resultStatus = nullptr;
    decltype(&PQresultErrorMessage) resultErrorMessage = nullptr;
    decltype(&PQerrorMessage) errorMessage = nullptr;
    decltype(&PQclear) clear = nullptr;
    decltype(&PQgetResult) getResult = nullptr;
    decltype(&PQgetCopyData) getCopyData = nullptr;
    decltype(&PQfreemem) freemem = nullptr;
    decltype(&PQescapeLiteral) escapeLiteral = nullptr;
    decltype(&PQgetCancel) getCancel = nullptr;
    decltype(&PQcancel) cancel = nullptr;
    decltype(&PQfreeCancel) freeCancel = nullptr;

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
        const bool found = find(pq.exec, "PQexec") && find(pq.resultStatus, "PQresultStatus") &&
                           find(pq.resultErrorMessage, "PQresultErrorMessage") &&
                           find(pq.errorMessage, "PQerrorMessage") && find(pq.clear, "PQclear") &&
                           find(pq.getResult, "PQgetResult") &&
                           find(pq.getCopyData, "PQgetCopyData") && find(pq.freemem, "PQfreemem") &&
                           find(pq.escapeLiteral, "PQescapeLiteral") &&
                           find(pq.getCancel, "PQgetCancel") && find(pq.cancel, "PQcancel") &&
                           find(pq.freeCancel, "PQfreeCancel");
        dlclose(library); // the plugin's reference keeps it loaded
        return found ? std::optional<Libpq>(pq) : std::nullopt;
    }
};

PGconn* postgresHandle(const QSqlDatabase& db)
{
    if (db.driverName() != QLatin1String("QPSQL") || !db.driver() || !db.isOpen())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    // Qt registers the handle under libpq's struct name (PGconn is a typedef of it).
    if (!handle.isValid() || qstrcmp(handle.typeName(), "pg_conn*") != 0)
        return nullptr;
    return *static_cast<PGconn* const*>(handle.constData());
}

QString connectionError(const Libpq& pq, PGconn* connection)
{
    return QString::fromUtf8(pq.errorMessage(connection)).simplified();
}

// The results a finished statement leaves, read to the end: empty, or the first error.
QString finish(const Libpq& pq, PGconn* connection)
{
    QString error;
    while (PGresult* result = pq.getResult(connection)) {
        const ExecStatusType status = pq.resultStatus(result);
        if (error.isEmpty() && status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            error = QString::fromUtf8(pq.resultErrorMessage(result)).simplified();
        pq.clear(result);
    }
    return error;
}

// COPY takes no parameters: the filter's values go in as literals libpq quotes for this
// connection's encoding and settings.
std::optional<QList<QByteArray>> literals(const Libpq& pq, PGconn* connection,
                                          const QVariantList& values, QString* error)
{
    QList<QByteArray> quoted;
    for (const QVariant& value : values) {
        if (value.typeId() != QMetaType::QString) {
            quoted << QByteArray::number(value.toLongLong());
            continue;
        }
        const QByteArray text = value.toString().toUtf8();
        char* literal = pq.escapeLiteral(connection, text.constData(), size_t(text.size()));
        if (!literal) {
            *error = connectionError(pq, connection);
            return std::nullopt;
        }
        quoted << QByteArray(literal);
        pq.freemem(literal);
    }
    return quoted;
}

// One line of COPY's text format: fields split by tabs, \N for NULL, backslash escapes. A field
// without a backslash is read where it lies; one with escapes is decoded into a scratch buffer.
class CopyLine
{
public:
    bool parse(QByteArrayView line)
    {
        if (line.endsWith('\n'))
            line.chop(1);
        int field = 0;
        qsizetype start = 0;
        for (qsizetype i = 0; i <= line.size(); ++i) {
            if (i < line.size() && line[i] != '\t')
                continue;
            if (field == columnCount)
                return false;
            set(field++, line.sliced(start, i - start));
            start = i + 1;
        }
        return field == columnCount;
    }
    bool isNull(int field) const { return m_null[field]; }
    QByteArrayView text(int field) const { return m_fields[field]; }
    qint64 integer(int field) const
    {
        const QByteArrayView cell = m_fields[field];
        qint64 value = 0;
        std::from_chars(cell.data(), cell.data() + cell.size(), value);
        return value;
    }

private:
    void set(int field, QByteArrayView raw)
    {
        m_null[field] = raw == "\\N";
        if (m_null[field]) {
            m_fields[field] = {};
            return;
        }
        if (!raw.contains('\\')) {
            m_fields[field] = raw;
            return;
        }
        QByteArray& decoded = m_scratch[field];
        decoded.clear();
        for (qsizetype i = 0; i < raw.size(); ++i) {
            char c = raw[i];
            if (c == '\\' && i + 1 < raw.size()) {
                c = raw[++i];
                switch (c) {
                case 'b':
                    c = '\b';
                    break;
                case 'f':
                    c = '\f';
                    break;
                case 'n':
                    c = '\n';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'v':
                    c = '\v';
                    break;
                default:
                    break; // "\\" and an escaped delimiter stand for themselves
                }
            }
            decoded += c;
        }
        m_fields[field] = decoded;
    }

    std::array<QByteArrayView, columnCount> m_fields;
    std::array<bool, columnCount> m_null{};
    std::array<QByteArray, columnCount> m_scratch;
};

// Stops a COPY the caller no longer wants and reads what was already on its way.
void abandonCopy(const Libpq& pq, PGconn* connection)
{
    if (PGcancel* cancel = pq.getCancel(connection)) {
        char error[256];
        pq.cancel(cancel, error, int(sizeof error));
        pq.freeCancel(cancel);
    }
    char* buffer = nullptr;
    while (pq.getCopyData(connection, &buffer, 0) > 0)
        pq.freemem(buffer);
    finish(pq, connection); // "canceling statement due to user request": asked for
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
    QString error;
    const std::optional<QList<QByteArray>> values =
        literals(*pq, connection, condition.values, &error);
    if (!values)
        return error;
    const QByteArray copy =
        "COPY (" +
        placeholdersReplaced(QLatin1String(selectColumns) + condition.whereClause() +
                                 QStringLiteral(" ORDER BY time_ms, id"),
                             *values) +
        ") TO STDOUT";
    {
        PGresult* started = pq->exec(connection, copy.constData());
        const bool copying = pq->resultStatus(started) == PGRES_COPY_OUT;
        if (!copying)
            error = started ? QString::fromUtf8(pq->resultErrorMessage(started)).simplified()
                            : connectionError(*pq, connection);
        pq->clear(started);
        if (!copying)
            return error;
    }
    CopyLine line;
    for (;;) {
        char* buffer = nullptr;
        const int length = pq->getCopyData(connection, &buffer, 0);
        if (length == -1)
            return finish(*pq, connection);
        if (length < 0)
            return connectionError(*pq, connection) + finish(*pq, connection);
        const bool parsed = line.parse(QByteArrayView(buffer, length));
        bool wanted = parsed;
        if (parsed) {
            PostgresEventRow event;
            event.timeMs = line.integer(0);
            event.severity = line.integer(1);
            event.kind = line.text(2);
            event.network = line.text(3);
            event.node = line.text(4);
            event.method = line.text(5);
            event.txId = line.text(6);
            if (!line.isNull(7))
                event.height = line.integer(7);
            event.message = line.text(8);
            wanted = row(event);
        }
        pq->freemem(buffer);
        if (!wanted) {
            abandonCopy(*pq, connection);
            return parsed ? QString()
                          : QStringLiteral("the server sent a row of the events table that is not "
                                           "nine columns");
        }
    }
}

QByteArray placeholdersReplaced(const QString& sql, const QList<QByteArray>& values)
{
    QByteArray replaced;
    const QByteArray utf8 = sql.toUtf8();
    replaced.reserve(utf8.size() + 64);
    char quote = 0;
    qsizetype next = 0;
    for (const char c : utf8) {
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '?' && next < values.size()) {
            replaced += values[next++];
            continue;
        }
        replaced += c;
    }
    return replaced;
}

} // namespace switchyard
