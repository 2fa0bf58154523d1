#include "system/systempane.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "common/jobrunner.h"
#include "common/policytext.h"
#include "common/screenfit.h"
#include "common/telemetryplot.h"
#include "common/usagegauge.h"
#include "fisura/gpumemory.h"
#include "fisura/policy.h"
#include "fisura/train.h"
#include "fisura/version.h"

namespace fisura::ui
{

SystemPane::SystemPane(QWidget* parent)
    : Pane(parent), job_(new JobRunner(this)), heading_(new QLabel(this)),
      explanation_(new QLabel(this)), facts_(new QTreeWidget(this)), liveHeading_(new QLabel(this)),
      telemetryNote_(new QLabel(this)), memoryBar_(new MemoryBar(this)),
      releaseButton_(new QPushButton(this)), releaseAction_(new QAction(this)),
      plot_(new TelemetryPlot(this)), gauge_(new UsageGauge(this)), poll_(new QTimer(this))
{
    QFont f = heading_->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    heading_->setFont(f);
    explanation_->setWordWrap(true);
    explanation_->setObjectName(QStringLiteral("explanation"));
    facts_->setObjectName(QStringLiteral("facts"));
    facts_->setColumnCount(3);
    facts_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    facts_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    facts_->setRootIsDecorated(true);
    telemetryNote_->setObjectName(QStringLiteral("telemetryNote"));
    telemetryNote_->setWordWrap(true);
    releaseButton_->setObjectName(QStringLiteral("releaseGpuMemory"));
    releaseAction_->setObjectName(QStringLiteral("releaseGpuMemoryAction"));
    connect(releaseAction_, &QAction::triggered, this, &SystemPane::releaseGpuMemoryNow);
    connect(releaseButton_, &QPushButton::clicked, releaseAction_, &QAction::trigger);
    connect(poll_, &QTimer::timeout, this, &SystemPane::pollTelemetry);
    liveHeading_->setFont(heading_->font());
    gauge_->hide(); // lives in the main window's status bar, not in this pane's layout
    // GPU memory and its release exist with a usable GPU only (setMachine, showSamples).
    memoryBar_->hide();
    releaseButton_->hide();

    auto* live = new QWidget(this);
    auto* liveLayout = new QVBoxLayout(live);
    liveLayout->setContentsMargins(0, 0, 0, 0);
    liveLayout->addWidget(liveHeading_);
    liveLayout->addWidget(telemetryNote_);
    auto* memRow = new QHBoxLayout;
    memRow->addWidget(memoryBar_, 1);
    memRow->addWidget(releaseButton_);
    liveLayout->addLayout(memRow);
    liveLayout->addWidget(plot_, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("systemSplitter"));
    split->addWidget(facts_);
    split->addWidget(live);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(explanation_);
    layout->addWidget(split, 1);
    retranslateUi();
}

void SystemPane::saveState(QSettings& s) const
{
    saveSplitters(s, this, QStringLiteral("system/splitters"));
}

void SystemPane::restoreState(QSettings& s)
{
    restoreSplitters(s, this, QStringLiteral("system/splitters"));
}

QString SystemPane::title() const
{
    return tr("System");
}

QIcon SystemPane::icon() const
{
    return style()->standardIcon(QStyle::SP_ComputerIcon);
}

void SystemPane::refresh()
{
    auto result = std::make_shared<MachineInfo>();
    if (!job_->start([result](const CancelToken&, ProgressSink*) {
            *result = queryMachine(); // CUDA initialisation can take seconds: off the GUI thread
            return Status::ok();
        }))
        return;
    connect(
        job_, &JobRunner::finished, this, [this, result](const Status&) { setMachine(*result); },
        Qt::SingleShotConnection);
}

void SystemPane::setMachine(const MachineInfo& m)
{
    machine_ = m;
    haveMachine_ = true;
    rebuild();
    Q_EMIT machineChanged();
}

QString SystemPane::summary() const
{
    if (!haveMachine_)
        return tr("Detecting hardware…");
    if (machine_.cudaUsable && !machine_.gpus.empty())
        return QString::fromStdString(machine_.gpus.front().name);
    return tr("CPU · %n core(s)", nullptr, machine_.logicalCores);
}

void SystemPane::retranslateUi()
{
    heading_->setText(tr("This computer"));
    liveHeading_->setText(tr("Live activity"));
    releaseAction_->setText(tr("Release GPU memory"));
    releaseAction_->setToolTip(tr("Hand memory that Fisura keeps cached on the GPU back to the "
                                  "driver, for other programs"));
    releaseButton_->setText(releaseAction_->text());
    releaseButton_->setToolTip(releaseAction_->toolTip());
    facts_->setHeaderLabels({tr("Item"), tr("Value"), tr("Why")});
    rebuild();
}

void SystemPane::startTelemetry(double hz)
{
    hz_ = hz;
    const double rate = isVisible() ? hz : std::min(hz, kHiddenHz);
    if (!sampler_) {
        TelemetryOptions o;
        o.hz = hz; // the history holds the plot's longest window at the full rate
        sampler_ = std::make_unique<TelemetrySampler>(o);
    }
    sampler_->setRate(rate);
    sampler_->start();
    poll_->start(std::max(100, int(500 / rate)));
    rebuild();
}

const fisura::TelemetryHistory* SystemPane::telemetryHistory() const
{
    return sampler_ ? &sampler_->history() : nullptr;
}

double SystemPane::telemetryRate() const
{
    return sampler_ ? sampler_->rate() : 0.0;
}

void SystemPane::stopTelemetry()
{
    poll_->stop();
    if (sampler_)
        sampler_->stop();
}

void SystemPane::pollTelemetry()
{
    if (!sampler_)
        return;
    const uint64_t pushed = sampler_->history().pushed();
    if (pushed == seen_)
        return;
    seen_ = pushed;
    if (!isVisible()) {
        // Hidden, only the status bar's gauge is seen: no copy of the history, no replot.
        TelemetrySample last;
        if (sampler_->history().latest(last))
            gauge_->setSample(last);
        return;
    }
    showSamples(sampler_->history().snapshot(telemetryPlot()->windowSeconds() + 1));
}

void SystemPane::setTelemetryRate(double hz)
{
    if (sampler_ && sampler_->rate() != hz) {
        sampler_->setRate(hz);
        poll_->setInterval(std::max(100, int(500 / hz)));
    }
}

void SystemPane::showEvent(QShowEvent* e)
{
    Pane::showEvent(e);
    // Shown: the plot catches up at once and follows at the full rate.
    setTelemetryRate(hz_);
    seen_ = 0;
    pollTelemetry();
}

void SystemPane::hideEvent(QHideEvent* e)
{
    Pane::hideEvent(e);
    // Hidden: only the gauge in the status bar (and the Train pane's CPU curve) reads samples.
    setTelemetryRate(std::min(hz_, kHiddenHz));
}

void SystemPane::showSamples(const std::vector<TelemetrySample>& samples)
{
    plot_->setSamples(samples);
    if (samples.empty())
        return;
    const TelemetrySample& last = samples.back();
    gauge_->setSample(last);
    const bool gpu = !last.gpus.empty();
    memoryBar_->setVisible(gpu);
    releaseButton_->setVisible(gpu && machine_.cudaUsable);
    if (gpu) {
        uint64_t allocated = 0, reserved = 0;
        if (machine_.cudaUsable) {
            if (auto m = gpuMemoryStats(0)) {
                allocated = m->allocatedBytes;
                reserved = m->reservedBytes;
            }
        }
        const GpuSample& g = last.gpus.front();
        memoryBar_->setValues(g.memoryUsedBytes, g.memoryTotalBytes, allocated, reserved);
    }
}

void SystemPane::releaseGpuMemoryNow()
{
    auto r = releaseGpuMemory(0);
    const QLocale loc;
    if (r)
        Q_EMIT statusMessage(tr("Released %1 MiB of cached GPU memory")
                                 .arg(loc.toString(double(*r) / 1048576.0, 'f', 0)),
                             5000);
    else
        Q_EMIT statusMessage(tr("There is no GPU memory to release on this computer"), 5000);
}

void SystemPane::rebuild()
{
    facts_->clear();
    if (!haveMachine_) {
        explanation_->setText(tr("Detecting hardware…"));
        return;
    }
    const QLocale loc;
    auto gib = [&](uint64_t bytes) {
        return tr("%1 GiB").arg(loc.toString(bytes / 1073741824.0, 'f', 1));
    };
    auto add = [&](QTreeWidgetItem* parent, const QString& k, const QString& v) {
        auto* it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(facts_);
        it->setText(0, k);
        it->setText(1, v);
        return it;
    };
    QString why;
    switch (machine_.cudaState) {
    case CudaState::Usable:
        break;
    case CudaState::NotBuilt:
        why = tr("this build of Fisura uses a LibTorch without CUDA.");
        break;
    case CudaState::NoDriver:
        why = tr("no NVIDIA driver is installed.");
        break;
    case CudaState::NoDevice:
        why = tr("the NVIDIA driver reports no usable GPU.");
        break;
    case CudaState::InitFailed:
        why = tr("the GPU could not be initialised.");
        break;
    }
    if (machine_.cudaUsable)
        explanation_->setText(tr("Fisura trains and runs models on the GPU."));
    else
        explanation_->setText(tr("No usable GPU: Fisura runs everything on the CPU, which is "
                                 "slower but gives the same results. Reason: %1")
                                  .arg(why));

    auto* cpu = add(nullptr, tr("Processor"), QString::fromStdString(machine_.cpuModel));
    add(cpu, tr("Logical cores"), QString::number(machine_.logicalCores));
    add(cpu, tr("Memory"),
        tr("%1 total, %2 available")
            .arg(gib(machine_.totalRamBytes), gib(machine_.availableRamBytes)));
    add(cpu, tr("Operating system"), QString::fromStdString(machine_.os));
    auto* libs = add(nullptr, tr("Libraries"),
                     QStringLiteral("Fisura ") + QString::fromStdString(version()));
    add(libs, QStringLiteral("LibTorch"),
        QString::fromStdString(machine_.torchVersion) + QStringLiteral(" · ") +
            (machine_.torchBuiltWithCuda ? tr("CUDA build") : tr("CPU build")));
    add(libs, QStringLiteral("OpenCV"), QString::fromStdString(opencvVersion()));
    add(libs, QStringLiteral("libtiff"), QString::fromStdString(libtiffVersion()));
    // core's cudaStatus is English; the state says the same in the user's language. Only an
    // initialisation failure keeps LibTorch's own words as detail.
    QString cudaRow = machine_.cudaUsable
                          ? tr("%n CUDA device(s) usable", nullptr, int(machine_.gpus.size()))
                          : why;
    if (machine_.cudaState == CudaState::InitFailed)
        cudaRow += QStringLiteral(" (") + QString::fromStdString(machine_.cudaStatus) +
                   QStringLiteral(")");
    add(libs, QStringLiteral("CUDA"), cudaRow);
    for (const GpuInfo& g : machine_.gpus) {
        auto* gi = add(nullptr, tr("GPU %1").arg(g.index), QString::fromStdString(g.name));
        add(gi, tr("Compute capability"),
            QStringLiteral("%1.%2").arg(g.computeMajor).arg(g.computeMinor));
        add(gi, tr("Multiprocessors"), QString::number(g.multiprocessors));
        add(gi, tr("Memory"),
            tr("%1 total, %2 free").arg(gib(g.totalMemoryBytes), gib(g.freeMemoryBytes)));
    }
    // What Fisura would choose for training a segmentation model here (the default training
    // job's own question), and why.
    const PolicyRequest request = policyRequestFor(TrainOptions{});
    const ExecutionPolicy policy = choosePolicy(machine_, request);
    auto* chosen = add(nullptr, tr("Chosen settings"),
                       tr("for training a U-Net on %1 px images").arg(request.inputSize));
    chosen->setData(0, Qt::UserRole, QStringLiteral("policy"));
    for (const PolicyChoice& c : policy.choices) {
        auto* it = add(chosen, policyChoiceLabel(c.what), policyChoiceValue(c.value));
        it->setText(2, policyChoiceReason(c));
        it->setToolTip(2, it->text(2));
    }
    facts_->expandAll();

    releaseAction_->setEnabled(machine_.cudaUsable);
    releaseButton_->setVisible(machine_.cudaUsable && memoryBar_->isVisibleTo(this));
    if (sampler_ && !sampler_->hasGpuTelemetry())
        telemetryNote_->setText(
            machine_.cudaUsable
                ? tr("GPU figures are unavailable (the NVIDIA management library could not be "
                     "loaded); processor and memory are shown.")
                : tr("There is no GPU to watch on this computer; the plot shows the processor "
                     "and memory."));
    else
        telemetryNote_->clear();
    telemetryNote_->setVisible(!telemetryNote_->text().isEmpty());
}

} // namespace fisura::ui
