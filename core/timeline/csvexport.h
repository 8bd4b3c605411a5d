#pragma once

#include "config/redaction.h"
#include "timeline/timelinefilter.h"

#include <QMetaType>
#include <QObject>
#include <QSqlDatabase>
#include <QString>
#include <atomic>
#include <functional>

class QThread;

namespace switchyard {

struct CsvExportOptions
{
    // Off by default: RFC 4180 tools (and sqlite3, Python's csv, grep) take a BOM for part of
    // the first header name. Excel's double-click opening wants one to read UTF-8; turn it on
    // for people who open the file that way.
    bool byteOrderMark = false;
    // Secrets the configuration knows, replaced wherever they appear; URLs are redacted anyway.
    SecretScrubber scrubber;
    // Read through QSqlQuery even on SQLite and PostgreSQL (the path other drivers take); for
    // tests.
    bool portableReader = false;
};

struct CsvExportResult
{
    qint64 rows = 0; // events written (the header not counted)
    bool cancelled = false;
    QString error; // says what failed and names the file

    bool ok() const { return !cancelled && error.isEmpty(); }
};

// rows written so far, and how far through the time range the export is (0..1000).
using CsvProgress = std::function<void(qint64 rows, int permille)>;

// Writes every event that matches `filter`, oldest first, as CSV: RFC 4180 (CRLF, quoting),
// UTF-8, a header row, ISO-8601 UTC times with milliseconds, keys for severity and kind, text
// cells redacted and neutralised against formulas. The file appears only when everything was
// written and synced (OutputFile); after a cancel or an error (a full disk included) there is no
// file, and a file that was there before is left as it was. A device or a FIFO is streamed into
// instead, never replaced; the store itself, under any name, is refused. Blocking: call it off
// the GUI thread (CsvExportJob does). It opens its own read-only connection and never creates
// the database.
CsvExportResult exportTimelineCsv(const QString& dbPath, const TimelineFilter& filter,
                                  const QString& outPath, const CsvProgress& progress = {},
                                  const std::atomic_bool* cancel = nullptr,
                                  const CsvExportOptions& options = {});
// The same over a connection the calling thread already has open.
CsvExportResult exportTimelineCsv(const QSqlDatabase& db, const TimelineFilter& filter,
                                  const QString& outPath, const CsvProgress& progress = {},
                                  const std::atomic_bool* cancel = nullptr,
                                  const CsvExportOptions& options = {});

// "time,severity,kind,network,node,method,tx_id,slot_or_block,message"
QByteArray csvHeader();

// One export on a worker thread for the GUI: progress and the result arrive as signals on the
// job's thread, cancel() stops it at the next batch of rows (and no file is left).
class CsvExportJob : public QObject
{
    Q_OBJECT
public:
    CsvExportJob(QString dbPath, TimelineFilter filter, QString outPath,
                 CsvExportOptions options = {}, QObject* parent = nullptr);
    ~CsvExportJob() override; // cancels and waits for the worker

    void start();
    bool isRunning() const;

public Q_SLOTS:
    void cancel();

Q_SIGNALS:
    void progressed(qint64 rows, int permille);
    void finished(const switchyard::CsvExportResult& result);

private:
    QString m_dbPath;
    TimelineFilter m_filter;
    QString m_outPath;
    CsvExportOptions m_options;
    std::atomic_bool m_cancel = false;
    QThread* m_thread = nullptr;
};

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::CsvExportResult)
