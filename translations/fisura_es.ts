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
        <translation>
            <numerusform>queda %n s</numerusform>
            <numerusform>quedan %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n min left</source>
        <translation>
            <numerusform>queda %n min aprox.</numerusform>
            <numerusform>quedan %n min aprox.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n h left</source>
        <translation>
            <numerusform>queda %n h aprox.</numerusform>
            <numerusform>quedan %n h aprox.</numerusform>
        </translation>
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
    <name>fisura::ui::InspectPane</name>
    <message>
        <source>x %1, y %2</source>
        <translation>x %1, y %2</translation>
    </message>
    <message>
        <source>%1 × %2 mm</source>
        <translation>%1 × %2 mm</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>Inspeccionar</translation>
    </message>
    <message>
        <source>Open scan…</source>
        <translation>Abrir escaneo…</translation>
    </message>
    <message>
        <source>Open a TIFF scan of any size</source>
        <translation>Abrir un escaneo TIFF de cualquier tamaño</translation>
    </message>
    <message>
        <source>Add overlay…</source>
        <translation>Añadir capa…</translation>
    </message>
    <message>
        <source>Lay a probability map or mask of the same size over the scan</source>
        <translation>Superponer al escaneo un mapa de probabilidad o una máscara del mismo tamaño</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <source>Show the whole scan (Home)</source>
        <translation>Mostrar el escaneo entero (Inicio)</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>One scan pixel per screen pixel (1)</source>
        <translation>Un píxel del escaneo por píxel de pantalla (1)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Swipe between two layers with a divider</source>
        <translation>Comparar dos capas con un divisor deslizante</translation>
    </message>
    <message>
        <source>Snapshot…</source>
        <translation>Captura…</translation>
    </message>
    <message>
        <source>Save the view with its overlays and scale bar as PNG</source>
        <translation>Guardar la vista con sus capas y la barra de escala como PNG</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 px</source>
        <translation>%1 · %2 × %3 px</translation>
    </message>
    <message>
        <source>No scan open</source>
        <translation>Ningún escaneo abierto</translation>
    </message>
    <message>
        <source>Layers (bottom to top)</source>
        <translation>Capas (de abajo arriba)</translation>
    </message>
    <message>
        <source>Draw this layer higher</source>
        <translation>Dibujar esta capa más arriba</translation>
    </message>
    <message>
        <source>Draw this layer lower</source>
        <translation>Dibujar esta capa más abajo</translation>
    </message>
    <message>
        <source>Remove this layer</source>
        <translation>Quitar esta capa</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Colores</translation>
    </message>
    <message>
        <source>Opacity</source>
        <translation>Opacidad</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>Outline only</source>
        <translation>Solo contorno</translation>
    </message>
    <message>
        <source>Left of divider</source>
        <translation>A la izquierda del divisor</translation>
    </message>
    <message>
        <source>Right of divider</source>
        <translation>A la derecha del divisor</translation>
    </message>
    <message>
        <source>Building overview…</source>
        <translation>Generando vista general…</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
    <message>
        <source>Swipe divider</source>
        <translation>Divisor deslizante</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Lado a lado</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>Rojo</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>Verde</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>Azul</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>Amarillo</translation>
    </message>
    <message>
        <source>Magenta</source>
        <translation>Magenta</translation>
    </message>
    <message>
        <source>Heat (black–red–yellow–white)</source>
        <translation>Calor (negro–rojo–amarillo–blanco)</translation>
    </message>
    <message>
        <source>Ground truth</source>
        <translation>Referencia</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>Abierto %1.</translation>
    </message>
    <message>
        <source>Open scan</source>
        <translation>Abrir escaneo</translation>
    </message>
    <message>
        <source>TIFF images</source>
        <translation>Imágenes TIFF</translation>
    </message>
    <message>
        <source>Open a scan first.</source>
        <translation>Abra primero un escaneo.</translation>
    </message>
    <message>
        <source>Add overlay</source>
        <translation>Añadir capa</translation>
    </message>
    <message>
        <source>Save snapshot</source>
        <translation>Guardar captura</translation>
    </message>
    <message>
        <source>PNG images</source>
        <translation>Imágenes PNG</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>Guardado %1.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::MemoryBar</name>
    <message>
        <source>Used on the device: %1 GiB of %2 GiB
Fisura tensors: %3 GiB
Held by Fisura's memory cache: %4 GiB</source>
        <translation>En uso en el dispositivo: %1 GiB de %2 GiB
Tensores de Fisura: %3 GiB
Retenido por la caché de memoria de Fisura: %4 GiB</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
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
        <source>Train crack classifiers, segmentation networks and anomaly models on your images, with live curves. Not available in this version yet.</source>
        <translation>Entrena clasificadores de grietas, redes de segmentación y modelos de anomalías con sus imágenes, con curvas en vivo. Aún no disponible en esta versión.</translation>
    </message>
    <message>
        <source>Run a trained model tile by tile over large scans and measure the cracks it finds. Not available in this version yet.</source>
        <translation>Ejecute un modelo entrenado tesela a tesela sobre escaneos grandes y mida las grietas que encuentre. Aún no disponible en esta versión.</translation>
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
        <translation>
            <numerusform>CPU · %n núcleo</numerusform>
            <numerusform>CPU · %n núcleos</numerusform>
        </translation>
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
    <message>
        <source>Live activity</source>
        <translation>Actividad en vivo</translation>
    </message>
    <message>
        <source>Release GPU memory</source>
        <translation>Liberar memoria de la GPU</translation>
    </message>
    <message>
        <source>Hand memory that Fisura keeps cached on the GPU back to the driver, for other programs</source>
        <translation>Devolver al controlador la memoria que Fisura mantiene en caché en la GPU, para otros programas</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Por qué</translation>
    </message>
    <message>
        <source>Released %1 MiB of cached GPU memory</source>
        <translation>Se liberaron %1 MiB de memoria de GPU en caché</translation>
    </message>
    <message>
        <source>There is no GPU memory to release on this computer</source>
        <translation>En este equipo no hay memoria de GPU que liberar</translation>
    </message>
    <message>
        <source>Chosen settings</source>
        <translation>Ajustes elegidos</translation>
    </message>
    <message>
        <source>for training a U-Net on %1 px images</source>
        <translation>para entrenar una U-Net con imágenes de %1 px</translation>
    </message>
    <message>
        <source>GPU figures are unavailable (the NVIDIA management library could not be loaded); processor and memory are shown.</source>
        <translation>No hay datos de la GPU (no se pudo cargar la biblioteca de gestión de NVIDIA); se muestran el procesador y la memoria.</translation>
    </message>
    <message>
        <source>There is no GPU to watch on this computer; the plot shows the processor and memory.</source>
        <translation>Este equipo no tiene GPU que observar; el gráfico muestra el procesador y la memoria.</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Loss scaling</source>
        <translation>Escalado de la pérdida</translation>
    </message>
    <message>
        <source>TF32 matrix maths</source>
        <translation>Cálculo matricial TF32</translation>
    </message>
    <message>
        <source>Convolution autotuning</source>
        <translation>Ajuste automático de convoluciones</translation>
    </message>
    <message>
        <source>Channels-last layout</source>
        <translation>Disposición channels-last</translation>
    </message>
    <message>
        <source>Pinned host memory</source>
        <translation>Memoria del host fijada</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño de lote</translation>
    </message>
    <message>
        <source>Loader threads</source>
        <translation>Hilos de carga</translation>
    </message>
    <message>
        <source>on</source>
        <translation>activado</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivado</translation>
    </message>
    <message>
        <source>processor (CPU)</source>
        <translation>procesador (CPU)</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>dinámico</translation>
    </message>
    <message>
        <source>a usable CUDA GPU was found</source>
        <translation>se encontró una GPU CUDA utilizable</translation>
    </message>
    <message>
        <source>the processor was requested</source>
        <translation>se pidió el procesador</translation>
    </message>
    <message>
        <source>there is no usable GPU</source>
        <translation>no hay ninguna GPU utilizable</translation>
    </message>
    <message>
        <source>reduced precision was requested but needs a GPU</source>
        <translation>se pidió precisión reducida, pero necesita una GPU</translation>
    </message>
    <message>
        <source>bf16 was requested but compute capability %1 has no bf16 tensor cores</source>
        <translation>se pidió bf16, pero la capacidad de cómputo %1 no tiene núcleos tensoriales bf16</translation>
    </message>
    <message>
        <source>fp16 was requested but compute capability %1 has no fp16 tensor cores</source>
        <translation>se pidió fp16, pero la capacidad de cómputo %1 no tiene núcleos tensoriales fp16</translation>
    </message>
    <message>
        <source>requested by the user</source>
        <translation>pedido por el usuario</translation>
    </message>
    <message>
        <source>the processor computes in fp32</source>
        <translation>el procesador calcula en fp32</translation>
    </message>
    <message>
        <source>compute capability %1 has bf16 tensor cores; no loss scaling needed</source>
        <translation>la capacidad de cómputo %1 tiene núcleos tensoriales bf16; no hace falta escalar la pérdida</translation>
    </message>
    <message>
        <source>compute capability %1 has fp16 tensor cores but no bf16</source>
        <translation>la capacidad de cómputo %1 tiene núcleos tensoriales fp16 pero no bf16</translation>
    </message>
    <message>
        <source>compute capability %1 has no tensor cores for reduced precision</source>
        <translation>la capacidad de cómputo %1 no tiene núcleos tensoriales para precisión reducida</translation>
    </message>
    <message>
        <source>fp16 gradients underflow without it</source>
        <translation>sin él, los gradientes fp16 se desbordan por abajo</translation>
    </message>
    <message>
        <source>Ampere or later: fp32 matrix products run on tensor cores</source>
        <translation>Ampere o posterior: los productos de matrices fp32 usan núcleos tensoriales</translation>
    </message>
    <message>
        <source>needs an Ampere or later GPU</source>
        <translation>necesita una GPU Ampere o posterior</translation>
    </message>
    <message>
        <source>input sizes are fixed, so autotuned convolutions pay off</source>
        <translation>los tamaños de entrada son fijos, así que el ajuste automático de convoluciones compensa</translation>
    </message>
    <message>
        <source>only applies on a GPU</source>
        <translation>solo se aplica en una GPU</translation>
    </message>
    <message>
        <source>tensor-core convolutions prefer this layout</source>
        <translation>las convoluciones con núcleos tensoriales prefieren esta disposición</translation>
    </message>
    <message>
        <source>no gain without reduced-precision tensor cores</source>
        <translation>sin núcleos tensoriales de precisión reducida no aporta nada</translation>
    </message>
    <message>
        <source>page-locked buffers allow asynchronous copies to the GPU</source>
        <translation>los búferes fijados en memoria permiten copias asíncronas a la GPU</translation>
    </message>
    <message>
        <source>there is no GPU to copy to</source>
        <translation>no hay ninguna GPU a la que copiar</translation>
    </message>
    <message>
        <source>from the memory table for %1 GB (not measured)</source>
        <translation>según la tabla de memoria para %1 GB (sin medir)</translation>
    </message>
    <message>
        <source>measured: the fastest batch that fits with headroom</source>
        <translation>medido: el lote más rápido que cabe con margen</translation>
    </message>
    <message>
        <source>a moderate batch for the processor</source>
        <translation>un lote moderado para el procesador</translation>
    </message>
    <message>
        <source>all cores but two decode images while the GPU computes</source>
        <translation>todos los núcleos menos dos decodifican imágenes mientras la GPU calcula</translation>
    </message>
    <message>
        <source>half the cores decode images, the rest compute</source>
        <translation>la mitad de los núcleos decodifica imágenes y el resto calcula</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TelemetryPlot</name>
    <message>
        <source>Export plot</source>
        <translation>Exportar gráfico</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Imagen PNG (*.png)</translation>
    </message>
    <message>
        <source>Export samples</source>
        <translation>Exportar muestras</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>Tabla CSV (*.csv)</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>Uso de la GPU</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Memoria de la GPU</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>Potencia de la GPU</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>Temperatura de la GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>RAM</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>Tiempo (s)</translation>
    </message>
    <message>
        <source>Use (%)</source>
        <translation>Uso (%)</translation>
    </message>
    <message>
        <source>Temperature (°C)</source>
        <translation>Temperatura (°C)</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Last minute</source>
        <translation>Último minuto</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>Últimos 5 minutos</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>Últimos 15 minutos</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>Plot as PNG…</source>
        <translation>Gráfico como PNG…</translation>
    </message>
    <message>
        <source>Samples as CSV…</source>
        <translation>Muestras como CSV…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>GPU %1 %</source>
        <translation>GPU %1 %</translation>
    </message>
    <message>
        <source>GPU memory %1 / %2 GiB</source>
        <translation>Memoria GPU %1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>RAM %1 / %2 GiB</source>
        <translation>RAM %1 / %2 GiB</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TiledViewer</name>
    <message>
        <source>Open a scan to inspect it.</source>
        <translation>Abra un escaneo para inspeccionarlo.</translation>
    </message>
    <message>
        <source>%1 m</source>
        <translation>%1 m</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
</context>
<context>
    <name>fisura::ui::UsageGauge</name>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>GPU %1 %, memory %2 / %3 GiB</source>
        <translation>GPU %1 %, memoria %2 / %3 GiB</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
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
