#pragma once

#include "pool/nodestate.h"

#include <QColor>
#include <QFont>
#include <QIcon>

class QTableView;

// How the dashboard looks from across the desk: type sizes, state icons and their accent
// colours. Every state has its own icon shape and word; colour is only a second cue.
namespace switchyard::ui {

inline constexpr qreal tablePointSize = 15;  // node rows, failover rows
inline constexpr qreal headerPointSize = 13; // column headers, toolbar
inline constexpr int tableIconSize = 28;
inline constexpr int cellPadding = 10;        // each side of a table cell's text
inline constexpr qreal summaryPointSize = 18; // the state counts over the node table

QIcon themeIcon(const QString& name); // ":/switchyard/<name>.svg", one shared icon per name
QIcon stateIcon(NodeState state);
QColor stateColor(NodeState state); // dark enough to read as text on white

QFont withPointSize(QFont font, qreal pointSize, bool bold = false);

// Text colour through the palette: a style sheet would cut the widget off from its parent's
// (large) font.
void setTextColor(QWidget* widget, const QColor& color);

// Gives a top-level window `wanted`, or less: whatever fits the available area of the screen it
// opens on with room for a window manager's frame (title bar included), and centres it there.
// A 1366×768 laptop with a panel sees every button of every window and dialog.
void fitToScreen(QWidget* window, QSize wanted);

// Large type, rows tall enough for it and for the state icons, alternating rows, whole-row
// selection, no grid noise.
void makeReadable(QTableView* table);

} // namespace switchyard::ui
