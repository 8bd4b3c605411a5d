#include "commands/subcommand.h"
#include "launch.h"

#include <QCoreApplication>
#include <cstring>

using namespace switchyard;

int main(int argc, char* argv[])
{
    // Subcommands run in scripts and on servers without a display: they get a QCoreApplication,
    // and only the window gets a QApplication.
    if (argc > 1) {
        for (const cli::Subcommand& subcommand : cli::subcommands()) {
            if (std::strcmp(argv[1], subcommand.name) != 0)
                continue;
            QCoreApplication app(argc, argv);
            app::setApplicationIdentity();
            QStringList arguments = QCoreApplication::arguments();
            arguments.removeAt(1);
            arguments[0] = QStringLiteral("switchyard %1").arg(QLatin1String(subcommand.name));
            return subcommand.run(arguments);
        }
    }
    return app::runWindow(argc, argv);
}
