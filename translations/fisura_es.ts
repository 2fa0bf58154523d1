<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="es" sourcelanguage="en">
<context>
    <name>ErrorText</name>
    <message>
        <source>Done.</source>
        <translation>Hecho.</translation>
    </message>
    <message>
        <source>A setting is not valid.</source>
        <translation>Un ajuste no es válido.</translation>
    </message>
    <message>
        <source>The file or folder does not exist.</source>
        <translation>El archivo o la carpeta no existe.</translation>
    </message>
    <message>
        <source>Reading or writing failed.</source>
        <translation>Falló la lectura o la escritura.</translation>
    </message>
    <message>
        <source>This kind of file is not supported.</source>
        <translation>Este tipo de archivo no es compatible.</translation>
    </message>
    <message>
        <source>The file is damaged or not an image.</source>
        <translation>El archivo está dañado o no es una imagen.</translation>
    </message>
    <message>
        <source>There is not enough memory.</source>
        <translation>No hay memoria suficiente.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message>
        <source>The GPU reported an error.</source>
        <translation>La GPU informó de un error.</translation>
    </message>
    <message>
        <source>Internal error (please report it).</source>
        <translation>Error interno (por favor, infórmenos).</translation>
    </message>
    <message numerus="yes">
        <source>%n s left</source>
        <translation><numerusform>queda %n s</numerusform><numerusform>quedan %n s</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>about %n min left</source>
        <translation><numerusform>queda %n min aprox.</numerusform><numerusform>quedan %n min aprox.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>about %n h left</source>
        <translation><numerusform>queda %n h aprox.</numerusform><numerusform>quedan %n h aprox.</numerusform></translation>
    </message>
</context>
<context>
    <name>fisura::app::MainWindow</name>
    <message>
        <source>Fisura — crack inspection workbench</source>
        <translation>Fisura — banco de trabajo para inspección de grietas</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Configuración</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Preferencias…</translation>
    </message>
    <message>
        <source>&amp;About Fisura</source>
        <translation>&amp;Acerca de Fisura</translation>
    </message>
    <message>
        <source>About Fisura</source>
        <translation>Acerca de Fisura</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Fisura %1&lt;/h3&gt;&lt;p&gt;Find and measure cracks in concrete, asphalt and masonry.&lt;/p&gt;&lt;p&gt;LibTorch %2 · OpenCV %3 · libtiff %4 · Qt %5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Fisura %1&lt;/h3&gt;&lt;p&gt;Detecte y mida grietas en hormigón, asfalto y mampostería.&lt;/p&gt;&lt;p&gt;LibTorch %2 · OpenCV %3 · libtiff %4 · Qt %5&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>fisura::ui::DataPane</name>
    <message>
        <source>Data</source>
        <translation>Datos</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>Abrir carpeta…</translation>
    </message>
    <message>
        <source>Choose a folder of images to browse</source>
        <translation>Elija una carpeta de imágenes para explorarla</translation>
    </message>
    <message>
        <source>Generate demo data…</source>
        <translation>Generar datos de demostración…</translation>
    </message>
    <message>
        <source>Write a synthetic crack dataset with exact masks</source>
        <translation>Escribe un conjunto de datos sintético de grietas con máscaras exactas</translation>
    </message>
    <message>
        <source>No folder open</source>
        <translation>Ninguna carpeta abierta</translation>
    </message>
    <message>
        <source>Show crack mask</source>
        <translation>Mostrar máscara de grietas</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Select an image to preview it.</source>
        <translation>Seleccione una imagen para previsualizarla.</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message>
        <source>crack pixels: %1 %</source>
        <translation>píxeles de grieta: %1 %</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>sin máscara</translation>
    </message>
    <message>
        <source>Open image folder</source>
        <translation>Abrir carpeta de imágenes</translation>
    </message>
    <message>
        <source>Folder for the demo dataset (empty, or an earlier demo dataset)</source>
        <translation>Carpeta para los datos de demostración (vacía o con datos de demostración anteriores)</translation>
    </message>
    <message>
        <source>Demo dataset ready.</source>
        <translation>Datos de demostración listos.</translation>
    </message>
    <message>
        <source>Cannot show this image.</source>
        <translation>No se puede mostrar esta imagen.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::PlaceholderPane</name>
    <message>
        <source>Train</source>
        <translation>Entrenar</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>Analizar</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>Inspeccionar</translation>
    </message>
    <message>
        <source>Train crack classifiers, segmentation networks and anomaly models on your images, with live curves. Not available in this version yet.</source>
        <translation>Entrena clasificadores de grietas, redes de segmentación y modelos de anomalías con sus imágenes, con curvas en vivo. Aún no disponible en esta versión.</translation>
    </message>
    <message>
        <source>Run a trained model tile by tile over large scans and measure the cracks it finds. Not available in this version yet.</source>
        <translation>Ejecute un modelo entrenado tesela a tesela sobre escaneos grandes y mida las grietas que encuentre. Aún no disponible en esta versión.</translation>
    </message>
    <message>
        <source>Move through gigapixel scans and lay crack overlays over them. Not available in this version yet.</source>
        <translation>Recorra escaneos de gigapíxeles y superponga capas de grietas. Aún no disponible en esta versión.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SettingsDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Preferencias</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Idioma del sistema</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SystemPane</name>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Detecting hardware…</source>
        <translation>Detectando el hardware…</translation>
    </message>
    <message numerus="yes">
        <source>CPU · %n core(s)</source>
        <translation><numerusform>CPU · %n núcleo</numerusform><numerusform>CPU · %n núcleos</numerusform></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este equipo</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Fisura trains and runs models on the GPU.</source>
        <translation>Fisura entrena y ejecuta los modelos en la GPU.</translation>
    </message>
    <message>
        <source>No usable GPU: Fisura runs everything on the CPU, which is slower but gives the same results. Reason: %1</source>
        <translation>No hay una GPU utilizable: Fisura lo ejecuta todo en la CPU, que es más lenta pero da los mismos resultados. Motivo: %1</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>Procesador</translation>
    </message>
    <message>
        <source>Logical cores</source>
        <translation>Núcleos lógicos</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>%1 total, %2 available</source>
        <translation>%1 en total, %2 disponibles</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>Sistema operativo</translation>
    </message>
    <message>
        <source>Libraries</source>
        <translation>Bibliotecas</translation>
    </message>
    <message>
        <source>CUDA build</source>
        <translation>compilación con CUDA</translation>
    </message>
    <message>
        <source>CPU build</source>
        <translation>compilación para CPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>Capacidad de cómputo</translation>
    </message>
    <message>
        <source>Multiprocessors</source>
        <translation>Multiprocesadores</translation>
    </message>
    <message>
        <source>%1 total, %2 free</source>
        <translation>%1 en total, %2 libres</translation>
    </message>
    <message>
        <source>this build of Fisura uses a LibTorch without CUDA.</source>
        <translation>esta compilación de Fisura usa una LibTorch sin CUDA.</translation>
    </message>
    <message>
        <source>no NVIDIA driver is installed.</source>
        <translation>no hay ningún controlador de NVIDIA instalado.</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no usable GPU.</source>
        <translation>el controlador de NVIDIA no encuentra ninguna GPU utilizable.</translation>
    </message>
    <message>
        <source>the GPU could not be initialised.</source>
        <translation>no se pudo inicializar la GPU.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Crack inspection workbench</source>
        <translation>Banco de trabajo para inspección de grietas</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>Muestra la versión y sale.</translation>
    </message>
    <message>
        <source>Open the demo dataset in &lt;dir&gt;, generating it first if needed.</source>
        <translation>Abre los datos de demostración en &lt;dir&gt; y los genera antes si hace falta.</translation>
    </message>
    <message>
        <source>Quit after &lt;ms&gt; milliseconds (for smoke tests).</source>
        <translation>Sale tras &lt;ms&gt; milisegundos (para pruebas rápidas).</translation>
    </message>
</context>
</TS>
