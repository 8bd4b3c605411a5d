#include "commonoptions.h"

#include "config/configloader.h"
#include "store/storelocation.h"
#include "subcommand.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <cstdio>

namespace switchyard::cli {

namespace {

QString helpLine(const QString& what, const QString& defaultPath, const QString& afterDefault)
{
    QString line = QStringLiteral("%1 Default: %2").arg(what, defaultPath);
    if (!afterDefault.isEmpty())
        line += u' ' + afterDefault;
    return line;
}

// The parser names the executable by its path; the user typed "switchyard NAME".
QString commandHelpText(const QCommandLineParser& parser, const QString& program)
{
    QString help = parser.helpText();
    const QString executable = QCoreApplication::arguments().value(0);
    const qsizetype at = executable.isEmpty() ? -1 : help.indexOf(executable);
    if (at >= 0)
        help.replace(at, executable.size(), program);
    return help;
}

} // namespace

ConfigOption::ConfigOption(const QString& what, const QString& afterDefault)
    : QCommandLineOption(QStringLiteral("config"),
                         helpLine(what, defaultConfigPath(), afterDefault), QStringLiteral("FILE"))
{}

bool ConfigOption::given(const QCommandLineParser& parser) const
{
    return parser.isSet(*this);
}

QString ConfigOption::path(const QCommandLineParser& parser) const
{
    return given(parser) ? parser.value(*this) : defaultConfigPath();
}

ConfigResult ConfigOption::load(const QCommandLineParser& parser, QByteArray* contents) const
{
    return loadConfigFile(path(parser), QProcessEnvironment::systemEnvironment(), contents);
}

StoreOption::StoreOption(const QString& what, const QString& afterDefault)
    : QCommandLineOption(QStringLiteral("db"),
                         helpLine(what, store::defaultDatabasePath(), afterDefault),
                         QStringLiteral("FILE"))
{}

bool StoreOption::given(const QCommandLineParser& parser) const
{
    return parser.isSet(*this);
}

QString StoreOption::path(const QCommandLineParser& parser) const
{
    return given(parser) ? parser.value(*this) : store::defaultDatabasePath();
}

QString StoreOption::path(const QCommandLineParser& parser, const Config& config) const
{
    if (!given(parser) && !config.db.isEmpty())
        return config.db;
    return path(parser);
}

bool StoreOption::named(const QCommandLineParser& parser, const Config& config) const
{
    return given(parser) || !config.db.isEmpty();
}

JsonOption::JsonOption(const QString& what)
    : QCommandLineOption(QStringLiteral("json"), what)
{}

bool JsonOption::given(const QCommandLineParser& parser) const
{
    return parser.isSet(*this);
}

NetworkOption::NetworkOption(const QString& what)
    : QCommandLineOption(QStringLiteral("network"), what, QStringLiteral("NAME"))
{}

bool NetworkOption::given(const QCommandLineParser& parser) const
{
    return parser.isSet(*this);
}

QString NetworkOption::name(const QCommandLineParser& parser) const
{
    return parser.value(*this);
}

QString NetworkOption::narrow(const QCommandLineParser& parser, Config* config,
                              const QString& configPath) const
{
    if (!given(parser))
        return {};
    const NetworkConfig* chosen = config->network(name(parser));
    if (!chosen)
        return QStringLiteral("no network named '%1' in %2").arg(name(parser), configPath);
    config->networks = {*chosen};
    return {};
}

QString absentStoreError(const QString& path, const QString& noun, const QString& hint)
{
    QString locationError;
    const store::StoreLocation location = store::StoreLocation::parse(path, &locationError);
    if (!locationError.isEmpty())
        return locationError;
    if (!location.isPostgres() && !QFileInfo::exists(path))
        return QStringLiteral("no %1 at %2 (%3; see --db)").arg(noun, path, hint);
    return QString();
}

store::OpenResult openStoreWithNotices(const QString& path)
{
    store::OpenResult opened = store::Database::open(path);
    for (const QString& notice : std::as_const(opened.notices))
        std::fprintf(stderr, "switchyard: note: %s\n", qPrintable(notice));
    return opened;
}

QString openStoreForRole(const QString& path, store::StoreRole role, const QString& what,
                         store::OpenResult* opened)
{
    *opened = openStoreWithNotices(path);
    if (!opened->ok())
        return opened->error;
    if (const QString refused = opened->database->access().refusal(role, what); !refused.isEmpty())
        return QStringLiteral("%1: %2").arg(path, refused);
    return {};
}

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    int usageExit)
{
    if (!parser.parse(arguments))
        return fail(
            usageExit,
            QStringLiteral("%1 (see %2 --help)").arg(parser.errorText(), arguments.constFirst()));
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(commandHelpText(parser, arguments.constFirst())));
        return ExitOk;
    }
    return std::nullopt;
}

} // namespace switchyard::cli
