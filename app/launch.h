#pragma once

namespace switchyard::app {

// Name, version and organisation, which QStandardPaths and QSettings use for their locations.
void setApplicationIdentity();

// `switchyard [--config FILE] [--demo]`: parses the options, loads the configuration and
// opens the main window. Returns the process exit code.
int runWindow(int argc, char* argv[]);

} // namespace switchyard::app
