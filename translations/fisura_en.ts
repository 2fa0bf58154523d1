<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ErrorText</name>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>%n s left</numerusform>
            <numerusform>%n s left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n min left</source>
        <translation>
            <numerusform>about %n min left</numerusform>
            <numerusform>about %n min left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n h left</source>
        <translation>
            <numerusform>about %n h left</numerusform>
            <numerusform>about %n h left</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PaceText</name>
    <message numerus="yes">
        <source>%n reader thread(s)</source>
        <translation>
            <numerusform>%n reader thread</numerusform>
            <numerusform>%n reader threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n device(s)</source>
        <translation>
            <numerusform>%n device</numerusform>
            <numerusform>%n devices</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PolicyText</name>
    <message numerus="yes">
        <source>prepare the next images while the network computes; they share the %n core(s) with it</source>
        <translation>
            <numerusform>prepare the next images while the network computes; they share the %n core with it</numerusform>
            <numerusform>prepare the next images while the network computes; they share the %n cores with it</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the network uses all %n core(s); preparing images takes little and shares them</source>
        <translation>
            <numerusform>the network uses its %n core; preparing images takes little and shares it</numerusform>
            <numerusform>the network uses all %n cores; preparing images takes little and shares them</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::AnalyzePane</name>
    <message numerus="yes">
        <source>The last queue was interrupted: %n scan(s) still wait.</source>
        <translation>
            <numerusform>The last queue was interrupted: %n scan still wait.</numerusform>
            <numerusform>The last queue was interrupted: %n scans still wait.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::DatasetPicker</name>
    <message numerus="yes">
        <source>%n image(s) with masks</source>
        <translation>
            <numerusform>%n image with masks</numerusform>
            <numerusform>%n images with masks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n crack-free image(s)</source>
        <translation>
            <numerusform>%n crack-free image</numerusform>
            <numerusform>%n crack-free images</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) cannot be used</source>
        <translation>
            <numerusform>%n file cannot be used</numerusform>
            <numerusform>%n files cannot be used</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All %Ln image(s) are labelled and used for training.</source>
        <translation>
            <numerusform>The %Ln image is labelled and used for training.</numerusform>
            <numerusform>All %Ln images are labelled and used for training.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln labelled image(s) are used for training (%1 proposed and %2 unlabelled are not).</source>
        <translation>
            <numerusform>%Ln labelled image is used for training (%1 proposed and %2 unlabelled are not).</numerusform>
            <numerusform>%Ln labelled images are used for training (%1 proposed and %2 unlabelled are not).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelRankingPanel</name>
    <message numerus="yes">
        <source>Ranking %Ln unlabelled image(s)…</source>
        <translation>
            <numerusform>Ranking %Ln unlabelled image…</numerusform>
            <numerusform>Ranking %Ln unlabelled images…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln image(s) ranked, the most uncertain first. Label them in this order to help the model most.</source>
        <translation>
            <numerusform>%Ln image ranked. Label it to help the model most.</numerusform>
            <numerusform>%Ln images ranked, the most uncertain first. Label them in this order to help the model most.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln image(s) could not be read (listed last).</source>
        <translation>
            <numerusform>%Ln image could not be read (listed last).</numerusform>
            <numerusform>%Ln images could not be read (listed last).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelStatusPanel</name>
    <message numerus="yes">
        <source>%Ln labelled</source>
        <translation>
            <numerusform>%Ln labelled</numerusform>
            <numerusform>%Ln labelled</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln proposed</source>
        <translation>
            <numerusform>%Ln proposed</numerusform>
            <numerusform>%Ln proposed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unlabelled</source>
        <translation>
            <numerusform>%Ln unlabelled</numerusform>
            <numerusform>%Ln unlabelled</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasurePanel</name>
    <message numerus="yes">
        <source>Measured %n crack(s).</source>
        <translation>
            <numerusform>Measured %n crack.</numerusform>
            <numerusform>Measured %n cracks.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n crack(s)</source>
        <translation>
            <numerusform>%n crack</numerusform>
            <numerusform>%n cracks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasureReport</name>
    <message numerus="yes">
        <source>%1 of %Ln crack(s) (marked OVER in the crack table)</source>
        <translation>
            <numerusform>%1 of %Ln crack (marked OVER in the crack table)</numerusform>
            <numerusform>%1 of %Ln cracks (marked OVER in the crack table)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::ModelFactsWidget</name>
    <message numerus="yes">
        <source>%1 × %1 px, %n channel(s)</source>
        <translation>
            <numerusform>%1 × %1 px, %n channel</numerusform>
            <numerusform>%1 × %1 px, %n channels</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::ProjectContents</name>
    <message numerus="yes">
        <source>%n image(s)</source>
        <translation>
            <numerusform>%n image</numerusform>
            <numerusform>%n images</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::SystemPane</name>
    <message numerus="yes">
        <source>CPU · %n core(s)</source>
        <translation>
            <numerusform>CPU · %n core</numerusform>
            <numerusform>CPU · %n cores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CUDA device(s) usable</source>
        <translation>
            <numerusform>%n CUDA device usable</numerusform>
            <numerusform>%n CUDA devices usable</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainLog</name>
    <message numerus="yes">
        <source>No improvement for %n epoch(s): stopped early; the best model is kept.</source>
        <translation>
            <numerusform>No improvement for %n epoch: stopped early; the best model is kept.</numerusform>
            <numerusform>No improvement for %n epochs: stopped early; the best model is kept.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainPane</name>
    <message numerus="yes">
        <source>%n run(s) compared, one colour each.</source>
        <translation>
            <numerusform>%n run compared, one colour each.</numerusform>
            <numerusform>%n runs compared, one colour each.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainResultsView</name>
    <message numerus="yes">
        <source>%n of the validation images lie above the threshold.</source>
        <translation>
            <numerusform>%n of the validation images lie above the threshold.</numerusform>
            <numerusform>%n of the validation images lie above the threshold.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainSetupPanel</name>
    <message numerus="yes">
        <source>%Ln distribution(s) of %1 features · about %2 of memory to fit, %3 in the model file</source>
        <translation>
            <numerusform>%Ln distribution of %1 features · about %2 of memory to fit, %3 in the model file</numerusform>
            <numerusform>%Ln distributions of %1 features · about %2 of memory to fit, %3 in the model file</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>train on all %n GPUs</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainStatus</name>
    <message numerus="yes">
        <source>Finished: %n epoch(s) in %1</source>
        <translation>
            <numerusform>Finished: %n epoch in %1</numerusform>
            <numerusform>Finished: %n epochs in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::ProvenanceText</name>
    <message numerus="yes">
        <source>%1 (%Ln image(s)): ODS F1 %2 · OIS F1 %3 · mIoU %4 at %5 px</source>
        <translation>
            <numerusform>%1 (%Ln image): ODS F1 %2 · OIS F1 %3 · mIoU %4 at %5 px</numerusform>
            <numerusform>%1 (%Ln images): ODS F1 %2 · OIS F1 %3 · mIoU %4 at %5 px</numerusform>
        </translation>
    </message>
</context>
</TS>
