#include "commonoptions.h"
#include "store/database.h"
#include "store/storelocation.h"
#include "store/storeroles.h"
#include "subcommand.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <cstdio>

namespace switchyard::cli {

namespace {

// Plain lower-case SQL names, so what the operator typed is the role the server makes.
bool isPlainRoleName(const QString& name)
{
    static const QRegularExpression plain(QStringLiteral("^[a-z_][a-z0-9_]{0,62}$"));
    return plain.match(name).hasMatch();
}

// What each role may do, one line per role: "switchyard_support: SELECT on every table".
QString summary(const store::StoreRoleNames& names, store::StoreRole role)
{
    QStringList parts;
    bool onlySelect = true;
    for (const store::TableGrant& grant : store::storeTableGrants()) {
        const store::TableRights rights = grant.rightsOf(role);
        if (rights != store::TableRights(store::TableRight::Select))
            onlySelect = false;
        parts << QStringLiteral("%1 (%2)").arg(grant.table, store::rightsSql(rights));
    }
    return QStringLiteral("%1 (%2): %3")
        .arg(names.of(role), store::storeRoleWord(role),
             onlySelect ? QStringLiteral("SELECT on every table, nothing else")
                        : parts.join(QLatin1String(", ")));
}

} // namespace

// `switchyard db grant [--db URL] [--collector NAME] [--operator NAME] [--support NAME]`:
// the store's least-privilege roles (store/storeroles.h); registered in subcommands.cpp.
int runDb(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "db grant: makes the three group roles of a PostgreSQL store a team shares (NOLOGIN, "
        "when missing) and gives each exactly its rights on the store's tables: the collector "
        "(serve) records pool state and events, an operator desk also tracks, sends and "
        "quarantines, a support desk only reads. Run it as the store's owner, and again after "
        "an upgrade migrated the store; then give each login its role (GRANT switchyard_support "
        "TO alice).\n"
        "Exit: 0 granted, 2 bad usage, 3 store error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("grant"));
    const StoreOption dbOption(QStringLiteral("The PostgreSQL store (postgresql://…)."));
    const ConfigOption configOption(
        QStringLiteral("Node configuration (JSON), read only when given: its `db` names the store "
                       "when --db does not."));
    const store::StoreRoleNames defaults;
    const QCommandLineOption collectorOption(
        QStringLiteral("collector"),
        QStringLiteral("The collector's group role. Default: %1").arg(defaults.collector),
        QStringLiteral("NAME"), defaults.collector);
    const QCommandLineOption operatorOption(
        QStringLiteral("operator"),
        QStringLiteral("The operator desks' group role. Default: %1").arg(defaults.operatorDesk),
        QStringLiteral("NAME"), defaults.operatorDesk);
    const QCommandLineOption supportOption(
        QStringLiteral("support"),
        QStringLiteral("The support desks' group role. Default: %1").arg(defaults.support),
        QStringLiteral("NAME"), defaults.support);
    parser.addOptions({dbOption, configOption, collectorOption, operatorOption, supportOption});

    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.value(0) != QLatin1String("grant"))
        return fail(ExitUsage,
                    positional.isEmpty()
                        ? QStringLiteral("db needs an action: grant (see switchyard db --help)")
                        : QStringLiteral("db: unknown action '%1' (expected grant)")
                              .arg(positional.constFirst()));
    if (positional.size() > 1)
        return fail(ExitUsage,
                    QStringLiteral("db grant: unexpected argument '%1'").arg(positional.at(1)));

    store::StoreRoleNames names;
    names.collector = parser.value(collectorOption);
    names.operatorDesk = parser.value(operatorOption);
    names.support = parser.value(supportOption);
    for (const auto& [option, name] : {std::pair{QStringLiteral("--collector"), names.collector},
                                       std::pair{QStringLiteral("--operator"), names.operatorDesk},
                                       std::pair{QStringLiteral("--support"), names.support}}) {
        if (!isPlainRoleName(name))
            return fail(ExitUsage, QStringLiteral("%1 '%2': a role name here is lower-case "
                                                  "letters, digits and _ (at most 63)")
                                       .arg(option, name));
    }
    if (names.collector == names.operatorDesk || names.collector == names.support ||
        names.operatorDesk == names.support)
        return fail(ExitUsage, QStringLiteral("db grant: the three roles need three names"));

    Config config;
    if (configOption.given(parser)) {
        const ConfigResult loaded = configOption.load(parser);
        if (!loaded.ok())
            return fail(ExitConfigError, loaded.errorText());
        config = loaded.config();
    }
    const QString dbPath = dbOption.path(parser, config);
    QString locationError;
    const store::StoreLocation location = store::StoreLocation::parse(dbPath, &locationError);
    if (!locationError.isEmpty())
        return fail(ExitUsage, locationError);
    if (!location.isPostgres())
        return fail(ExitUsage, QStringLiteral("db grant: %1 is an SQLite file; roles are a "
                                              "PostgreSQL store's (--db postgresql://…)")
                                   .arg(dbPath));

    store::OpenResult opened = openStoreWithNotices(dbPath);
    if (!opened.ok())
        return fail(ExitConfigError, opened.error);
    QSqlDatabase db = opened.database->connection();
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT current_schema()")) || !query.next())
        return fail(ExitConfigError, QStringLiteral("%1: cannot read the store's schema: %2")
                                         .arg(dbPath, query.lastError().text().simplified()));
    const QString schema = query.value(0).toString();
    query.finish();

    // All or nothing: a refused statement leaves the rights as they were.
    if (!db.transaction())
        return fail(ExitConfigError, QStringLiteral("%1: cannot start a transaction: %2")
                                         .arg(dbPath, db.lastError().text().simplified()));
    for (const QString& statement : store::grantStatements(names, schema)) {
        if (!query.exec(statement)) {
            const QString why = query.lastError().databaseText().simplified();
            db.rollback();
            return fail(ExitConfigError,
                        QStringLiteral("%1: nothing granted: %2 (run it as the store's owner, "
                                       "with CREATEROLE when a role is new)")
                            .arg(dbPath, why));
        }
    }
    if (!db.commit())
        return fail(ExitConfigError, QStringLiteral("%1: nothing granted: %2")
                                         .arg(dbPath, db.lastError().text().simplified()));
    for (store::StoreRole role :
         {store::StoreRole::Collector, store::StoreRole::Operator, store::StoreRole::Support})
        std::printf("%s\n", qPrintable(summary(names, role)));
    std::printf("granted on schema %s of %s; give each login its role: GRANT %s TO alice;\n",
                qPrintable(schema), qPrintable(dbPath), qPrintable(names.operatorDesk));
    return ExitOk;
}

} // namespace switchyard::cli
