#include "boardcarddelegate.h"

#include "appearance.h"

#include <QFontDatabase>
#include <QPainter>

namespace switchyard::ui {

using tracking::TxState;

namespace {

constexpr int outerMarginX = 6;
constexpr int outerMarginY = 5;
constexpr int paddingX = 14;
constexpr int paddingY = 8;
constexpr int lineGap = 3;
constexpr int stripeWidth = 7;
constexpr int textLines = 5; // state, intent, network, sends and age, expiry

const QColor secondaryText(0x3a, 0x3a, 0x3a);
const QColor cardBorder(0xb8, 0xb8, 0xb8);
const QColor barTrack(0xdd, 0xdd, 0xdd);

QString role(const QModelIndex& index, int role)
{
    return index.data(role).toString();
}

QColor barColor(double fraction)
{
    if (fraction < 0.1)
        return stateColor(NodeState::Unhealthy);
    if (fraction < 0.33)
        return stateColor(NodeState::Lagging);
    return stateColor(NodeState::Probation);
}

// Draws `text` elided into `rect`; returns the width it took.
int drawElided(QPainter* painter, const QRect& rect, const QString& text, Qt::Alignment align)
{
    const QFontMetrics metrics = painter->fontMetrics();
    const QString shown = metrics.elidedText(text, Qt::ElideRight, rect.width());
    painter->drawText(rect, int(align | Qt::AlignVCenter), shown);
    return metrics.horizontalAdvance(shown);
}

// The id's head…tail with as many characters each side as fit (6 down to 3): one ellipsis,
// never a short form elided again ("0xf52f3d……").
QString fittedId(const QString& id, const QFontMetrics& metrics, int width)
{
    const int prefix = id.startsWith(QLatin1String("0x")) ? 2 : 0;
    for (int keep = 6; keep >= 3; --keep) {
        const QString shown = id.size() <= prefix + 2 * keep + 1
                                  ? id
                                  : id.left(prefix + keep) + u'…' + id.right(keep);
        if (metrics.horizontalAdvance(shown) <= width || keep == 3)
            return shown;
    }
    Q_UNREACHABLE();
}

} // namespace

QColor boardColumnColor(BoardColumn column)
{
    switch (column) {
    case BoardColumn::Pending:
        return stateColor(NodeState::Lagging);
    case BoardColumn::Confirmed:
        return stateColor(NodeState::Probation);
    case BoardColumn::Finalized:
        return stateColor(NodeState::Healthy);
    case BoardColumn::Failed:
        return stateColor(NodeState::Unhealthy);
    }
    Q_UNREACHABLE();
}

QColor txStateColor(TxState state)
{
    if (state == TxState::Imported)
        return stateColor(NodeState::NotProbed);
    return boardColumnColor(boardColumnOf(state));
}

BoardCardDelegate::BoardCardDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
{}

BoardCardDelegate::Fonts BoardCardDelegate::fontsFor(const QFont& base)
{
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(summaryPointSize);
    mono.setBold(true);
    return {mono, withPointSize(base, tablePointSize, true), withPointSize(base, tablePointSize)};
}

int BoardCardDelegate::cardHeight(const QFont& font)
{
    const Fonts fonts = fontsFor(font);
    const int idHeight = QFontMetrics(fonts.id).height();
    const int textHeight = QFontMetrics(fonts.text).height();
    return 2 * (outerMarginY + paddingY) + idHeight + textLines * (textHeight + lineGap) + lineGap;
}

namespace {

// The type sizes a state word steps down through before it would be cut.
constexpr qreal stateWordSizes[] = {tablePointSize, headerPointSize, 12};
// The content's margins as paint() lays them out, and a pixel of rounding.
constexpr int cardMargins = stripeWidth + 2 * paddingX + 1;

} // namespace

int BoardCardDelegate::minimumCardWidth(const QFont& font)
{
    const QFontMetrics smallest(withPointSize(font, std::cend(stateWordSizes)[-1], true));
    int widest = 0;
    for (const TxState state :
         {TxState::Imported, TxState::Submitted, TxState::TransportUnknown, TxState::Confirmed,
          TxState::Finalized, TxState::ExecutionFailed, TxState::Expired, TxState::Superseded})
        widest = std::max(widest, smallest.horizontalAdvance(tracking::txStateWord(state)));
    return widest + cardMargins;
}

QFont BoardCardDelegate::stateWordFont(const QFont& font, const QString& word, int width)
{
    for (const qreal size : stateWordSizes) {
        const QFont candidate = withPointSize(font, size, true);
        if (QFontMetrics(candidate).horizontalAdvance(word) <= width)
            return candidate;
    }
    return withPointSize(font, std::cend(stateWordSizes)[-1], true);
}

QPixmap BoardCardDelegate::icon(const QString& name, int size, qreal devicePixelRatio) const
{
    const QString key = QStringLiteral("%1@%2x%3").arg(name).arg(size).arg(devicePixelRatio);
    auto found = m_icons.constFind(key);
    if (found == m_icons.cend())
        found = m_icons.insert(key, themeIcon(name).pixmap(QSize(size, size), devicePixelRatio));
    return *found;
}

QSize BoardCardDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const
{
    return {option.rect.width() > 0 ? option.rect.width() : 320, cardHeight(option.font)};
}

void BoardCardDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    const Fonts fonts = fontsFor(option.font);
    const auto state = TxState(index.data(PendingBoardModel::StateRole).toInt());
    const QColor accent = txStateColor(state);
    const bool selected = option.state.testFlag(QStyle::State_Selected);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect card =
        option.rect.adjusted(outerMarginX, outerMarginY, -outerMarginX, -outerMarginY);
    QColor background = Qt::white;
    if (selected) {
        const QColor highlight = option.palette.highlight().color();
        background =
            QColor::fromRgbF(0.85 + 0.15 * highlight.redF(), 0.85 + 0.15 * highlight.greenF(),
                             0.85 + 0.15 * highlight.blueF());
    }
    // The stripe says the state's colour at a glance; the icon and word say it without colour.
    // Drawn as overlapping fills rather than through a clip path, which costs a mask per card.
    const QRectF frame = QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5);
    painter->setPen(Qt::NoPen);
    painter->setBrush(accent);
    painter->drawRoundedRect(frame, 8, 8);
    painter->setBrush(background);
    painter->drawRoundedRect(frame.adjusted(stripeWidth, 0, 0, 0), 8, 8);
    painter->fillRect(QRectF(frame.left() + stripeWidth, frame.top(), 8, frame.height()),
                      background);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(selected ? QPen(option.palette.highlight().color(), 3) : QPen(cardBorder, 1));
    painter->drawRoundedRect(frame, 8, 8);

    const QRect content = card.adjusted(stripeWidth + paddingX - outerMarginX, paddingY,
                                        -paddingX + outerMarginX, -paddingY);
    const int idHeight = QFontMetrics(fonts.id).height();
    const int textHeight = QFontMetrics(fonts.text).height();
    int y = content.top();

    // 1. Icon and short id.
    const int iconSize = std::min(idHeight, tableIconSize);
    painter->drawPixmap(QRect(content.left(), y + (idHeight - iconSize) / 2, iconSize, iconSize),
                        icon(role(index, PendingBoardModel::StateIconRole), iconSize,
                             painter->device()->devicePixelRatioF()));
    painter->setFont(fonts.id);
    painter->setPen(option.palette.text().color());
    const int idLeft = content.left() + iconSize + 10;
    const QRect idRect(idLeft, y, content.right() - idLeft, idHeight);
    // Four characters each side in the large type, else in the card's bold type, before fewer.
    const QString id = role(index, PendingBoardModel::IdRole);
    QString shown = fittedId(id, painter->fontMetrics(), idRect.width());
    if (shown != id && shown.size() - shown.indexOf(u'…') - 1 < 4) {
        QFont smaller = fonts.id;
        smaller.setPointSizeF(tablePointSize);
        painter->setFont(smaller);
        shown = fittedId(id, painter->fontMetrics(), idRect.width());
    }
    painter->drawText(idRect, int(Qt::AlignLeft | Qt::AlignVCenter), shown);
    y += idHeight + lineGap;

    // 2. The state in words.
    QRect line(content.left(), y, content.width(), textHeight);
    // A smaller type before a cut word: "Transport unkno…" would say another state.
    const QString stateWord = role(index, PendingBoardModel::StateWordRole);
    painter->setFont(stateWordFont(option.font, stateWord, line.width()));
    painter->setPen(accent);
    drawElided(painter, line, stateWord, Qt::AlignLeft);
    y += textHeight + lineGap;

    // 3. The sending system's intent.
    line.moveTop(y);
    painter->setFont(fonts.text);
    const QString intent = role(index, PendingBoardModel::IntentRole);
    painter->setPen(intent.isEmpty() ? secondaryText : option.palette.text().color());
    drawElided(painter, line, intent.isEmpty() ? tr("no intent") : intent, Qt::AlignLeft);
    y += textHeight + lineGap;

    // 4. The network, the whole line to itself.
    line.moveTop(y);
    painter->setPen(secondaryText);
    drawElided(painter, line, role(index, NetworkRole), Qt::AlignLeft);
    painter->setPen(option.palette.text().color());
    y += textHeight + lineGap;

    // 5. Sends and the last node, the age on the right.
    line.moveTop(y);
    const int ageWidth =
        drawElided(painter, line, role(index, PendingBoardModel::AgeTextRole), Qt::AlignRight);
    const int attempts = index.data(PendingBoardModel::AttemptsRole).toInt();
    QString sends =
        attempts == 0
            ? tr("no sends")
            : QStringLiteral("%1 %2").arg(attempts).arg(attempts == 1 ? tr("send") : tr("sends"));
    const QString node = role(index, PendingBoardModel::LastNodeRole);
    if (!node.isEmpty())
        sends += QStringLiteral(" · ") + node;
    if (index.data(PendingBoardModel::WatchOnlyRole).toBool())
        sends += QStringLiteral(" · ") + tr("watch-only");
    painter->setPen(secondaryText);
    drawElided(painter, line.adjusted(0, 0, -ageWidth - 10, 0), sends, Qt::AlignLeft);
    y += textHeight + lineGap;

    // 6. Blocks left before expiry (pending Solana), or why it failed.
    line.moveTop(y);
    const auto outlook = ExpiryOutlook(index.data(PendingBoardModel::ExpiryOutlookRole).toInt());
    const QString expiry = role(index, PendingBoardModel::ExpiryTextRole);
    if (outlook == ExpiryOutlook::BlocksLeft || outlook == ExpiryOutlook::PastLastValid) {
        const double fraction = index.data(PendingBoardModel::BlocksLeftFractionRole).toDouble();
        const QColor color = outlook == ExpiryOutlook::PastLastValid
                                 ? stateColor(NodeState::Unhealthy)
                                 : barColor(fraction);
        // The number first, at its full width; the bar takes what is left of the line.
        painter->setFont(fonts.strong);
        painter->setPen(fraction < 0.33 ? color : option.palette.text().color());
        const int textWidth = drawElided(painter, line, expiry, Qt::AlignLeft);
        const int barHeight = std::max(8, textHeight / 2);
        const QRect track(line.left() + textWidth + 12, line.center().y() - barHeight / 2,
                          std::max(0, line.width() - textWidth - 12), barHeight);
        if (track.width() >= 24) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(barTrack);
            painter->drawRoundedRect(track, 3, 3);
            if (fraction > 0) {
                painter->setBrush(color);
                painter->drawRoundedRect(QRect(track.left(), track.top(),
                                               std::max(4, int(track.width() * fraction)),
                                               track.height()),
                                         3, 3);
            }
        }
    } else if (outlook != ExpiryOutlook::NotApplicable) {
        painter->setPen(outlook == ExpiryOutlook::Undecidable ? stateColor(NodeState::Lagging)
                                                              : secondaryText);
        drawElided(painter, line, expiry, Qt::AlignLeft);
    } else if (const QString error = role(index, PendingBoardModel::ErrorRole); !error.isEmpty()) {
        painter->setPen(stateColor(NodeState::Unhealthy));
        drawElided(painter, line, error, Qt::AlignLeft);
    } else {
        painter->setPen(secondaryText);
        drawElided(painter, line, role(index, PendingBoardModel::LandedTextRole), Qt::AlignLeft);
    }
    painter->restore();
}

} // namespace switchyard::ui
