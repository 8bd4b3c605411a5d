#pragma once

#include "config/configresult.h"
#include "store/database.h"
#include "store/storeroles.h"

#include <QCommandLineOption>
#include <QString>
#include <optional>

class QCommandLineParser;

namespace switchyard::cli {

// `--config FILE`, as every command and the window take it: the node configuration, or
// defaultConfigPath() when it is not given.
class ConfigOption : public QCommandLineOption
{
public:
    // The help line says `what`, then "Default: PATH" and `afterDefault`.
    explicit ConfigOption(const QString& what = QStringLiteral("Node configuration (JSON)."),
                          const QString& afterDefault = QString());

    bool given(const QCommandLineParser& parser) const;
    QString path(const QCommandLineParser& parser) const;
    // loadConfigFile(path(parser)); `contents` receives the bytes read.
    ConfigResult load(const QCommandLineParser& parser, QByteArray* contents = nullptr) const;
};

// `--db FILE` (or a postgresql:// URL), as every command and the window take it: the store, or
// store::defaultDatabasePath() when it is not given.
class StoreOption : public QCommandLineOption
{
public:
    // The help line says `what` ("The event store."), then "Default: PATH" and `afterDefault`.
    explicit StoreOption(const QString& what, const QString& afterDefault = QString());

    bool given(const QCommandLineParser& parser) const;
    QString path(const QCommandLineParser& parser) const;
    // --db, else the configuration's `db`, else the default.
    QString path(const QCommandLineParser& parser, const Config& config) const;
    // Named by --db or by the configuration: it must open (the default may not).
    bool named(const QCommandLineParser& parser, const Config& config) const;
};

// `--json`, as the commands that print for scripts take it; `what` says what is printed
// ("Print one JSON object instead.").
class JsonOption : public QCommandLineOption
{
public:
    explicit JsonOption(const QString& what);

    bool given(const QCommandLineParser& parser) const;
};

// `--network NAME`, as the commands about one network take it; `what` says what it picks.
class NetworkOption : public QCommandLineOption
{
public:
    explicit NetworkOption(const QString& what);

    bool given(const QCommandLineParser& parser) const;
    QString name(const QCommandLineParser& parser) const; // empty when not given
    // Leaves in `config` only the network named, when one is; why not when the configuration
    // read from `configPath` has none of that name ("no network named 'x' in PATH").
    QString narrow(const QCommandLineParser& parser, Config* config,
                   const QString& configPath) const;
};

// Why a command that reads a store without ever creating one cannot read the one at `path`: a
// location that does not parse, or no SQLite file there ("no NOUN at PATH (HINT; see --db)").
// Empty when it can.
QString absentStoreError(const QString& path, const QString& noun, const QString& hint);

// store::Database::open, its notices (an upgrade, a recovered journal) on stderr as
// "switchyard: note: …".
store::OpenResult openStoreWithNotices(const QString& path);

// openStoreWithNotices for a desk of `role`, which must be allowed to `what` ("track
// transactions"). Why not, naming the store where the reason does not: empty once it is open.
QString openStoreForRole(const QString& path, store::StoreRole role, const QString& what,
                         store::OpenResult* opened);

// Parses the command line of one command, whose arguments[0] is "switchyard NAME" and whose
// parser has its help option. An exit code when the command ends there: `usageExit` for an
// option it does not know, ExitOk once --help printed the help, the program named as the user
// ran it ("switchyard track"), not as the executable's path.
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    int usageExit);

} // namespace switchyard::cli
