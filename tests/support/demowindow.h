#pragma once

// The demo as the window's tests watch it: the simulated cluster of `switchyard --demo`, the
// pools probing it, and the main window on them with a store and settings of its own.

#include "mainwindow.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "util/settings.h"

#include <QString>
#include <memory>

namespace switchyard::testing {

struct Demo
{
    enum class Probes
    {
        Started,
        NotStarted, // the test or the window starts them
    };
    // Each probe may take 10 s: none of the demo's nodes needs a probe to time out to show its
    // state, and the demo's 1.5 s would let a loaded machine turn a node that answers unhealthy
    // mid-test.
    explicit Demo(Probes probes = Probes::Started);

    // A store at `path` that the demo's pools record into; null with `error` set when it does not
    // open.
    std::unique_ptr<StoreSession> openStore(const QString& path, QString* error);

    sim::DemoScenario scenario;
    PoolManager pools;
};

// The main window on a Demo, as `switchyard --demo` opens it: a store at `storePath` (set on the
// window when it opened; `storeError` says why not) and settings at `settingsPath`. Not shown.
struct DemoWindow
{
    DemoWindow(const QString& storePath, const QString& settingsPath);

    Demo demo;
    QString storeError;
    std::unique_ptr<StoreSession> store;
    Settings settings;
    ui::MainWindow window;
};

} // namespace switchyard::testing
