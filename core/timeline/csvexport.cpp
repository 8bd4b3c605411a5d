#include "csvexport.h"

#include "store/sqlitehandle.h"
#include "timeline/csvfield.h"
#include "timeline/eventredactor.h"
#include "timeline/isotime.h"
#include "timeline/postgrespages.h"
#include "timeline/readconnection.h"
#include "util/outputfile.h"

#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <memory>
#include <optional>
#include <sqlite3.h>

namespace switchyard {

namespace {

constexpr qint64 rowsPerBatch = 8192; // cancel is checked and progress told this often
constexpr qsizetype flushAt = 1 << 20;

const char* const selectColumns =
    "SELECT time_ms, severity, kind, network, node, method, tx_id, height, message FROM events";

struct TimeSpan
{
    qint64 first = 0;
    qint64 last = 0;
};

// What progress measures against: the filter's range, or the table's first and last event.
// Two index seeks; counting the rows would read them all before writing any.
TimeSpan timeSpan(const QSqlDatabase& db, const TimelineFilter& filter)
{
    const auto edge = [&](const char* order) -> std::optional<qint64> {
        QSqlQuery query(db);
        if (query.exec(QStringLiteral("SELECT time_ms FROM events ORDER BY time_ms %1 LIMIT 1")
                           .arg(QLatin1String(order))) &&
            query.next())
            return query.value(0).toLongLong();
        return std::nullopt;
    };
    TimeSpan span;
    span.first = filter.from.isValid() ? filter.from.toMSecsSinceEpoch() : edge("ASC").value_or(0);
    span.last = filter.until.isValid() ? filter.until.toMSecsSinceEpoch() - 1
                                       : edge("DESC").value_or(span.first);
    return span;
}

// The store under every name SQLite gives its files: writing over any of them loses events and
// tracked transactions, or corrupts the store under the connections that have it open.
QList<ProtectedFile> storeFiles(const QSqlDatabase& db)
{
    const QString name = db.databaseName();
    if (db.driverName() != QLatin1String("QSQLITE") || name.isEmpty() ||
        name == QLatin1String(":memory:"))
        return {};
    // SQLite names the -wal, -shm and -journal after the file the store's name leads to: a
    // symbolic link's "link.db-wal" is not the live log, the target's "s.db-wal" is.
    const QString canonical = QFileInfo(name).canonicalFilePath();
    const QString path = canonical.isEmpty() ? name : canonical;
    return {
        {path, QStringLiteral("the event store")},
        {path + QStringLiteral("-wal"), QStringLiteral("the event store's write-ahead log")},
        {path + QStringLiteral("-shm"), QStringLiteral("the event store's shared memory")},
        {path + QStringLiteral("-journal"), QStringLiteral("the event store's rollback journal")}};
}

// Turns rows into CSV bytes in a buffer and hands full buffers to the output.
class CsvWriter
{
public:
    CsvWriter(OutputFile& file, const CsvExportOptions& options, const CsvProgress& progress,
              const std::atomic_bool* cancel, TimeSpan span)
        : m_file(file)
        , m_redactor(options.scrubber)
        , m_progress(progress)
        , m_cancel(cancel)
        , m_span(span)
    {
        m_buffer.reserve(flushAt + 64 * 1024);
        if (options.byteOrderMark)
            m_buffer += "\xEF\xBB\xBF";
        m_buffer += csvHeader();
        m_buffer += csv::recordEnd;
    }

    void time(qint64 ms) { appendIsoUtcMs(m_buffer, ms); }
    void severity(qint64 stored)
    {
        m_buffer += ',';
        csv::appendText(m_buffer,
                        QByteArrayView(severityKey(severityFromStored(stored)).toLatin1()));
    }
    void text(QByteArrayView utf8)
    {
        m_buffer += ',';
        if (!m_redactor.needsWork(utf8)) {
            csv::appendText(m_buffer, utf8);
            return;
        }
        const QByteArray clean = m_redactor.redacted(QString::fromUtf8(utf8)).toUtf8();
        csv::appendText(m_buffer, QByteArrayView(clean));
    }
    void number(std::optional<qint64> value)
    {
        m_buffer += ',';
        if (value)
            csv::appendNumber(m_buffer, *value);
    }

    // Ends the record; false when the export must stop (cancelled, or the disk refused).
    bool endRow(qint64 timeMs)
    {
        m_buffer += csv::recordEnd;
        ++m_rows;
        if (m_buffer.size() >= flushAt && !flush())
            return false;
        if (m_rows % rowsPerBatch != 0)
            return true;
        if (cancelled())
            return false;
        if (m_progress)
            m_progress(m_rows, permille(timeMs));
        return true;
    }

    bool flush()
    {
        if (m_buffer.isEmpty())
            return true;
        if (!m_file.write(QByteArrayView(m_buffer))) {
            m_error = m_file.errorString();
            return false;
        }
        // Not clear(): that frees the buffer, and the next megabyte would grow it again by
        // copies.
        m_buffer.resize(0);
        return true;
    }

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    qint64 rows() const { return m_rows; }
    QString error() const { return m_error; }
    void finished()
    {
        if (m_progress)
            m_progress(m_rows, 1000);
    }

private:
    int permille(qint64 timeMs) const
    {
        if (m_span.last <= m_span.first)
            return 0;
        const double done = double(timeMs - m_span.first) / double(m_span.last - m_span.first);
        return std::clamp(int(done * 1000), 0, 1000);
    }

    OutputFile& m_file;
    EventRedactor m_redactor;
    const CsvProgress& m_progress;
    const std::atomic_bool* m_cancel;
    TimeSpan m_span;
    QByteArray m_buffer;
    qint64 m_rows = 0;
    QString m_error;
};

struct StatementDeleter
{
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};

QByteArrayView columnText(sqlite3_stmt* statement, int column)
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
    return text ? QByteArrayView(text, sqlite3_column_bytes(statement, column)) : QByteArrayView();
}

// SQLite's own API: the text arrives as the UTF-8 it is stored in and goes out the same way,
// with no QVariant or QString per cell unless a cell needs redacting. Several times faster than
// QSqlQuery over a million rows (bench/store).
QString readSqlite(sqlite3* handle, const QString& where, const SqlCondition& condition,
                   CsvWriter& writer)
{
    const QByteArray sql = QByteArray(selectColumns) + where.toUtf8() + " ORDER BY time_ms, id";
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(handle, sql.constData(), int(sql.size()), &raw, nullptr) != SQLITE_OK)
        return QString::fromUtf8(sqlite3_errmsg(handle));
    const std::unique_ptr<sqlite3_stmt, StatementDeleter> statement(raw);
    int parameter = 1;
    for (const QVariant& value : condition.values) {
        int bound = SQLITE_OK;
        if (value.typeId() == QMetaType::QString) {
            const QByteArray text = value.toString().toUtf8();
            bound = sqlite3_bind_text(raw, parameter, text.constData(), int(text.size()),
                                      SQLITE_TRANSIENT);
        } else {
            bound = sqlite3_bind_int64(raw, parameter, value.toLongLong());
        }
        if (bound != SQLITE_OK)
            return QString::fromUtf8(sqlite3_errmsg(handle));
        ++parameter;
    }
    for (;;) {
        const int step = sqlite3_step(raw);
        if (step == SQLITE_DONE)
            return {};
        if (step != SQLITE_ROW)
            return QString::fromUtf8(sqlite3_errmsg(handle));
        const qint64 timeMs = sqlite3_column_int64(raw, 0);
        writer.time(timeMs);
        writer.severity(sqlite3_column_int64(raw, 1));
        for (int column = 2; column <= 6; ++column)
            writer.text(columnText(raw, column));
        writer.number(sqlite3_column_type(raw, 7) == SQLITE_NULL
                          ? std::nullopt
                          : std::optional<qint64>(sqlite3_column_int64(raw, 7)));
        writer.text(columnText(raw, 8));
        if (!writer.endRow(timeMs))
            return {};
    }
}

// libpq's own results on a team's PostgreSQL store: like SQLite's path, no QVariant per cell.
QString readPostgres(const QSqlDatabase& db, const SqlCondition& condition, CsvWriter& writer)
{
    return readPostgresEvents(db, condition, [&writer](const PostgresEventRow& row) {
        writer.time(row.timeMs);
        writer.severity(row.severity);
        for (const QByteArrayView text : {row.kind, row.network, row.node, row.method, row.txId})
            writer.text(text);
        writer.number(row.height);
        writer.text(row.message);
        return writer.endRow(row.timeMs);
    });
}

// Any Qt SQL driver; on SQLite and PostgreSQL only when asked (portableReader, for tests).
QString readPortable(const QSqlDatabase& db, const QString& where, const SqlCondition& condition,
                     CsvWriter& writer)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.prepare(QLatin1String(selectColumns) + where +
                       QStringLiteral(" ORDER BY time_ms, id")))
        return query.lastError().text();
    for (const QVariant& value : condition.values)
        query.addBindValue(value);
    if (!query.exec())
        return query.lastError().text();
    while (query.next()) {
        const qint64 timeMs = query.value(0).toLongLong();
        writer.time(timeMs);
        writer.severity(query.value(1).toLongLong());
        for (int column = 2; column <= 6; ++column)
            writer.text(QByteArrayView(query.value(column).toString().toUtf8()));
        const QVariant height = query.value(7);
        writer.number(height.isNull() ? std::nullopt : std::optional<qint64>(height.toLongLong()));
        writer.text(QByteArrayView(query.value(8).toString().toUtf8()));
        if (!writer.endRow(timeMs))
            return {};
    }
    return query.lastError().isValid() ? query.lastError().text() : QString();
}

} // namespace

QByteArray csvHeader()
{
    return QByteArrayLiteral("time,severity,kind,network,node,method,tx_id,slot_or_block,message");
}

CsvExportResult exportTimelineCsv(const QSqlDatabase& db, const TimelineFilter& filter,
                                  const QString& outPath, const CsvProgress& progress,
                                  const std::atomic_bool* cancel, const CsvExportOptions& options)
{
    CsvExportResult result;
    const auto isCancelled = [&] {
        return cancel && cancel->load();
    };
    if (isCancelled()) {
        result.cancelled = true;
        return result;
    }
    OutputFile file(outPath);
    if (!file.open(storeFiles(db))) {
        result.error = file.errorString();
        return result;
    }
    const SqlCondition condition = filter.toSql(sqlDialectOf(db));
    CsvWriter writer(file, options, progress, cancel, timeSpan(db, filter));
    sqlite3* handle = options.portableReader ? nullptr : store::sqliteHandle(db);
    QString readError;
    if (handle)
        readError = readSqlite(handle, condition.whereClause(), condition, writer);
    else if (!options.portableReader && hasPostgresHandle(db))
        readError = readPostgres(db, condition, writer);
    else
        readError = readPortable(db, condition.whereClause(), condition, writer);
    result.rows = writer.rows();
    if (!readError.isEmpty()) {
        const QString source =
            db.databaseName().isEmpty() ? QStringLiteral("the event store") : db.databaseName();
        result.error = QStringLiteral("cannot read events from %1: %2").arg(source, readError);
    } else if (!writer.error().isEmpty()) {
        result.error = writer.error();
    } else if (isCancelled()) {
        result.cancelled = true;
    } else if (!writer.flush()) {
        result.error = writer.error();
    } else if (!file.commit()) {
        result.error = file.errorString();
    }
    if (!result.ok())
        file.cancel(); // the temporary file goes; nothing appears at outPath
    else
        writer.finished();
    return result;
}

CsvExportResult exportTimelineCsv(const QString& dbPath, const TimelineFilter& filter,
                                  const QString& outPath, const CsvProgress& progress,
                                  const std::atomic_bool* cancel, const CsvExportOptions& options)
{
    const ReadConnection connection(dbPath);
    if (!connection.isOpen()) {
        CsvExportResult result;
        result.error = connection.errorText();
        return result;
    }
    return exportTimelineCsv(connection.database(), filter, outPath, progress, cancel, options);
}

CsvExportJob::CsvExportJob(QString dbPath, TimelineFilter filter, QString outPath,
                           CsvExportOptions options, QObject* parent)
    : QObject(parent)
    , m_dbPath(std::move(dbPath))
    , m_filter(std::move(filter))
    , m_outPath(std::move(outPath))
    , m_options(std::move(options))
{
    qRegisterMetaType<CsvExportResult>();
}

CsvExportJob::~CsvExportJob()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

void CsvExportJob::start()
{
    if (m_thread)
        return;
    m_cancel = false;
    m_thread = QThread::create([this] {
        const CsvProgress progress = [this](qint64 rows, int permille) {
            QMetaObject::invokeMethod(
                this, [this, rows, permille] { Q_EMIT progressed(rows, permille); },
                Qt::QueuedConnection);
        };
        const CsvExportResult result =
            exportTimelineCsv(m_dbPath, m_filter, m_outPath, progress, &m_cancel, m_options);
        QMetaObject::invokeMethod(
            this, [this, result] { Q_EMIT finished(result); }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("csv-export"));
    m_thread->start();
}

bool CsvExportJob::isRunning() const
{
    return m_thread && m_thread->isRunning();
}

void CsvExportJob::cancel()
{
    m_cancel = true;
}

} // namespace switchyard
