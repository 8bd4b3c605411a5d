#pragma once

#include <QSqlDatabase>
#include <QString>

namespace switchyard {

// A read-only SQLite connection of its own (or a PostgreSQL one, for a store named by its URL), for
// a thread that is not the one that owns the application's connection (Qt SQL connections must stay
// in the thread that opened them). Never creates the file. Removed from Qt's registry when it goes
// out of scope.
class ReadConnection
{
public:
    explicit ReadConnection(const QString& path);
    ~ReadConnection();
    ReadConnection(const ReadConnection&) = delete;
    ReadConnection& operator=(const ReadConnection&) = delete;

    bool isOpen() const { return m_error.isEmpty(); }
    QString errorText() const { return m_error; } // "cannot open PATH: why"
    QSqlDatabase database() const;

private:
    void probeEvents(const QString& path);

    QString m_name;
    QString m_error;
};

} // namespace switchyard
